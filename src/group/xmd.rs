//! `expand_message_xmd` (RFC 9380 §5.3.1): the uniform byte strings behind
//! hash-to-scalar and the FFDHE hash-to-group.

use sha2::digest::block_api::BlockSizeUser;
use sha2::digest::Digest;
use zeroize::Zeroizing;

/// `len` bytes of `expand_message_xmd(msg, dst, len)` with hash `H`, where
/// `msg` is the concatenation of `msg_parts` (the transcripts of RFC 9497 are
/// built from parts, so they are never copied into one buffer).
///
/// The message may be a private input, so every intermediate block and
/// the result are wiped on drop.
///
/// Panics if `len` is 0 or above `255·H::output_size()` or `dst` is longer
/// than 255 bytes; every caller passes constants within those limits.
pub(crate) fn expand_message_xmd<H: Digest + BlockSizeUser + Clone>(
    msg_parts: &[&[u8]],
    dst: &[u8],
    len: usize,
) -> Zeroizing<Vec<u8>> {
    expand_message_xmd_after(&zero_padded::<H>(), msg_parts, dst, len)
}

/// `H` after absorbing `Z_pad`, the block of zeros every `b_0` starts
/// with: a batch computes it once and hands it to
/// [`expand_message_xmd_after`] per message (one compression fewer each).
pub(crate) fn zero_padded<H: Digest + BlockSizeUser>() -> H {
    let mut h = H::new();
    h.update(vec![0u8; H::block_size()]);
    h
}

/// `L` bytes of `expand_message_xmd` with SHA-256 of each input under
/// `dst` (one zero block absorbed for the whole batch): what the 8-lane
/// engines hash to their curves (P-256, BLS12-381 G1). Wiped on drop (the
/// inputs may be private).
#[cfg(target_arch = "x86_64")]
pub(crate) fn expand_each_sha256<const L: usize>(
    inputs: &[&[u8]],
    dst: &[u8],
) -> Zeroizing<Vec<[u8; L]>> {
    let zero_padded = zero_padded::<sha2::Sha256>();
    Zeroizing::new(
        inputs
            .iter()
            .map(|x| {
                let bytes = expand_message_xmd_after(&zero_padded, &[x], dst, L);
                <[u8; L]>::try_from(bytes.as_slice()).expect("L bytes")
            })
            .collect(),
    )
}

/// [`expand_message_xmd`] given `zero_padded`, the state of
/// [`zero_padded`] (the message's bytes follow it).
pub(crate) fn expand_message_xmd_after<H: Digest + BlockSizeUser + Clone>(
    zero_padded: &H,
    msg_parts: &[&[u8]],
    dst: &[u8],
    len: usize,
) -> Zeroizing<Vec<u8>> {
    let b_len = <H as Digest>::output_size();
    let ell = len.div_ceil(b_len);
    assert!(
        len > 0 && ell <= 255 && len <= u16::MAX as usize,
        "expand_message_xmd length"
    );
    assert!(dst.len() <= 255, "DST longer than 255 bytes");
    let dst_prime = |h: &mut H| {
        h.update(dst);
        h.update([dst.len() as u8]);
    };

    // b_0 = H(Z_pad || msg || l_i_b_str || I2OSP(0, 1) || DST_prime)
    let mut h = zero_padded.clone();
    for part in msg_parts {
        h.update(part);
    }
    h.update((len as u16).to_be_bytes());
    h.update([0u8]);
    dst_prime(&mut h);
    let b0 = h.finalize();

    // b_1 = H(b_0 || 1 || DST_prime); b_i = H((b_0 XOR b_(i-1)) || i || DST_prime)
    let mut out = Zeroizing::new(Vec::with_capacity(ell * b_len));
    let mut previous = Zeroizing::new(vec![0u8; b_len]);
    let mut mixed = Zeroizing::new(vec![0u8; b_len]);
    for i in 1..=ell {
        let mut h = H::new();
        for ((m, a), b) in mixed.iter_mut().zip(b0.iter()).zip(previous.iter()) {
            *m = a ^ b;
        }
        h.update(mixed.as_slice());
        h.update([i as u8]);
        dst_prime(&mut h);
        previous.copy_from_slice(&h.finalize());
        out.extend_from_slice(&previous);
    }
    out.truncate(len);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::{Sha256, Sha512};

    /// RFC 9380 Appendix K.1 (SHA-256) and K.3 (SHA-512), first vectors.
    #[test]
    fn rfc9380_vectors() {
        let dst = b"QUUX-V01-CS02-with-expander-SHA256-128";
        let out = expand_message_xmd::<Sha256>(&[b""], dst, 0x20);
        assert_eq!(
            hex(&out),
            "68a985b87eb6b46952128911f2a4412bbc302a9d759667f87f7a21d803f07235"
        );
        let out = expand_message_xmd::<Sha256>(&[b"ab", b"c"], dst, 0x20);
        assert_eq!(
            hex(&out),
            "d8ccab23b5985ccea865c6c97b6e5b8350e794e603b4b97902f53a8a0d605615"
        );
        let dst = b"QUUX-V01-CS02-with-expander-SHA512-256";
        let out = expand_message_xmd::<Sha512>(&[b""], dst, 0x20);
        assert_eq!(
            hex(&out),
            "6b9a7312411d92f921c6f68ca0b6380730a1a4d982c507211a90964c394179ba"
        );
    }

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }
}
