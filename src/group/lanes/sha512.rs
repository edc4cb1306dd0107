//! SHA-512 (FIPS 180-4) of 8 messages at once, one per 64-bit lane of a
//! zmm register, for ristretto255's client when its IFMA engine runs: it
//! hashes three short messages per element (expand_message_xmd's `b_0` and
//! `b_1`, and the `Finalize` hash), one block each for inputs of up to
//! 67 bytes (the OPRF's DST), and one compression
//! in sequence (sha2's) costs about as much as the 8 lanes' together here:
//! each round's rotations are single instructions (`vprorq`), its three-
//! input functions one `vpternlogq` each, and the lanes share them.
//!
//! The messages may be private inputs: their padded blocks, the message
//! schedules and the states are wiped. The
//! time depends on the messages' lengths only, as the one-at-a-time hash's
//! does.

use core::arch::x86_64::*;

use super::toolkit::{wipe, LANES};
use super::LaneCpu;
use zeroize::Zeroizing;

/// Bytes of a block.
const BLOCK_LEN: usize = 128;

/// Bytes of a digest.
pub(crate) const DIGEST_LEN: usize = 64;

/// The round constants (FIPS 180-4 §4.2.3).
const K: [u64; 80] = [
    0x428a_2f98_d728_ae22,
    0x7137_4491_23ef_65cd,
    0xb5c0_fbcf_ec4d_3b2f,
    0xe9b5_dba5_8189_dbbc,
    0x3956_c25b_f348_b538,
    0x59f1_11f1_b605_d019,
    0x923f_82a4_af19_4f9b,
    0xab1c_5ed5_da6d_8118,
    0xd807_aa98_a303_0242,
    0x1283_5b01_4570_6fbe,
    0x2431_85be_4ee4_b28c,
    0x550c_7dc3_d5ff_b4e2,
    0x72be_5d74_f27b_896f,
    0x80de_b1fe_3b16_96b1,
    0x9bdc_06a7_25c7_1235,
    0xc19b_f174_cf69_2694,
    0xe49b_69c1_9ef1_4ad2,
    0xefbe_4786_384f_25e3,
    0x0fc1_9dc6_8b8c_d5b5,
    0x240c_a1cc_77ac_9c65,
    0x2de9_2c6f_592b_0275,
    0x4a74_84aa_6ea6_e483,
    0x5cb0_a9dc_bd41_fbd4,
    0x76f9_88da_8311_53b5,
    0x983e_5152_ee66_dfab,
    0xa831_c66d_2db4_3210,
    0xb003_27c8_98fb_213f,
    0xbf59_7fc7_beef_0ee4,
    0xc6e0_0bf3_3da8_8fc2,
    0xd5a7_9147_930a_a725,
    0x06ca_6351_e003_826f,
    0x1429_2967_0a0e_6e70,
    0x27b7_0a85_46d2_2ffc,
    0x2e1b_2138_5c26_c926,
    0x4d2c_6dfc_5ac4_2aed,
    0x5338_0d13_9d95_b3df,
    0x650a_7354_8baf_63de,
    0x766a_0abb_3c77_b2a8,
    0x81c2_c92e_47ed_aee6,
    0x9272_2c85_1482_353b,
    0xa2bf_e8a1_4cf1_0364,
    0xa81a_664b_bc42_3001,
    0xc24b_8b70_d0f8_9791,
    0xc76c_51a3_0654_be30,
    0xd192_e819_d6ef_5218,
    0xd699_0624_5565_a910,
    0xf40e_3585_5771_202a,
    0x106a_a070_32bb_d1b8,
    0x19a4_c116_b8d2_d0c8,
    0x1e37_6c08_5141_ab53,
    0x2748_774c_df8e_eb99,
    0x34b0_bcb5_e19b_48a8,
    0x391c_0cb3_c5c9_5a63,
    0x4ed8_aa4a_e341_8acb,
    0x5b9c_ca4f_7763_e373,
    0x682e_6ff3_d6b2_b8a3,
    0x748f_82ee_5def_b2fc,
    0x78a5_636f_4317_2f60,
    0x84c8_7814_a1f0_ab72,
    0x8cc7_0208_1a64_39ec,
    0x90be_fffa_2363_1e28,
    0xa450_6ceb_de82_bde9,
    0xbef9_a3f7_b2c6_7915,
    0xc671_78f2_e372_532b,
    0xca27_3ece_ea26_619c,
    0xd186_b8c7_21c0_c207,
    0xeada_7dd6_cde0_eb1e,
    0xf57d_4f7f_ee6e_d178,
    0x06f0_67aa_7217_6fba,
    0x0a63_7dc5_a2c8_98a6,
    0x113f_9804_bef9_0dae,
    0x1b71_0b35_131c_471b,
    0x28db_77f5_2304_7d84,
    0x32ca_ab7b_40c7_2493,
    0x3c9e_be0a_15c9_bebc,
    0x431d_67c4_9c10_0d4c,
    0x4cc5_d4be_cb3e_42b6,
    0x597f_299c_fc65_7e2a,
    0x5fcb_6fab_3ad6_faec,
    0x6c44_198c_4a47_5817,
];

/// The initial hash value (FIPS 180-4 §5.3.5).
const IV: [u64; 8] = [
    0x6a09_e667_f3bc_c908,
    0xbb67_ae85_84ca_a73b,
    0x3c6e_f372_fe94_f82b,
    0xa54f_f53a_5f1d_36f1,
    0x510e_527f_ade6_82d1,
    0x9b05_688c_2b3e_6c1f,
    0x1f83_d9ab_fb41_bd6b,
    0x5be0_cd19_137e_2179,
];

/// The SHA-512 digest of each message, given as the parts that concatenate
/// into it, after `prefix` (a whole number of blocks, shared by every
/// message: expand_message_xmd's block of zeros, compressed once). Wiped
/// on drop.
pub(crate) fn digest_each(
    _cpu: LaneCpu,
    prefix: &[u8],
    messages: &[Vec<&[u8]>],
) -> Zeroizing<Vec<[u8; DIGEST_LEN]>> {
    assert!(
        prefix.len().is_multiple_of(BLOCK_LEN),
        "a prefix of whole blocks"
    );
    // SAFETY: the CPU has AVX-512F (`LaneCpu`).
    unsafe { digest_lanes(prefix, messages) }
}

/// RFC 9380 `expand_message_xmd` with SHA-512 for 64 bytes (one block,
/// `b_1`) of each message, as `xmd::expand_message_xmd::<Sha512>(&[m],
/// dst, 64)` gives it. Panics if `dst` is longer than 255 bytes (callers
/// pass constants).
pub(crate) fn expand_message_xmd_64_each(
    cpu: LaneCpu,
    messages: &[&[u8]],
    dst: &[u8],
) -> Zeroizing<Vec<[u8; DIGEST_LEN]>> {
    assert!(dst.len() <= 255, "DST longer than 255 bytes");
    let dst_len = [dst.len() as u8];
    // b_0 = H(Z_pad || msg || I2OSP(64, 2) || I2OSP(0, 1) || DST_prime)
    let b_0_messages: Vec<Vec<&[u8]>> = messages
        .iter()
        .map(|m| vec![*m, &[0, 64, 0][..], dst, &dst_len])
        .collect();
    let b_0 = digest_each(cpu, &[0u8; BLOCK_LEN], &b_0_messages);
    // b_1 = H(b_0 || I2OSP(1, 1) || DST_prime)
    let b_1_messages: Vec<Vec<&[u8]>> = b_0
        .iter()
        .map(|b| vec![&b[..], &[1][..], dst, &dst_len])
        .collect();
    digest_each(cpu, &[], &b_1_messages)
}

/// [`digest_each`] on a CPU with AVX-512F.
#[target_feature(enable = "avx512f")]
fn digest_lanes(prefix: &[u8], messages: &[Vec<&[u8]>]) -> Zeroizing<Vec<[u8; DIGEST_LEN]>> {
    let mut start = IV.map(|v| _mm512_set1_epi64(v as i64));
    for block in prefix.chunks_exact(BLOCK_LEN) {
        let words = Zeroizing::new(core::array::from_fn(|w| [word(block, w); LANES]));
        compress(&mut start, &words, 0xff);
    }
    let mut digests = Zeroizing::new(vec![[0u8; DIGEST_LEN]; messages.len()]);
    for (group, out) in messages.chunks(LANES).zip(digests.chunks_mut(LANES)) {
        let padded: Vec<Zeroizing<Vec<u8>>> = group
            .iter()
            .map(|parts| padded(prefix.len(), parts))
            .collect();
        let blocks = padded
            .iter()
            .map(|p| p.len() / BLOCK_LEN)
            .max()
            .unwrap_or(0);
        let mut state = start;
        for b in 0..blocks {
            // Lanes whose message has ended keep their state.
            let mut words = Zeroizing::new([[0u64; LANES]; 16]);
            let mut active = 0u8;
            for (lane, message) in padded.iter().enumerate() {
                if let Some(block) = message.get(b * BLOCK_LEN..(b + 1) * BLOCK_LEN) {
                    active |= 1 << lane;
                    for (w, lanes) in words.iter_mut().enumerate() {
                        lanes[lane] = word(block, w);
                    }
                }
            }
            compress(&mut state, &words, active);
        }
        let mut words = Zeroizing::new([[0u64; LANES]; 8]);
        for (lanes, v) in words.iter_mut().zip(state) {
            // SAFETY: `lanes` is 8 u64s, room for the vector.
            unsafe { _mm512_storeu_si512(lanes.as_mut_ptr().cast(), v) };
        }
        for (lane, digest) in out.iter_mut().enumerate() {
            for (chunk, lanes) in digest.chunks_exact_mut(8).zip(words.iter()) {
                chunk.copy_from_slice(&lanes[lane].to_be_bytes());
            }
        }
        wipe(&mut state);
    }
    digests
}

/// Word `w` of a block (big-endian).
fn word(block: &[u8], w: usize) -> u64 {
    u64::from_be_bytes(core::array::from_fn(|i| block[8 * w + i]))
}

/// The message of `parts` padded (`0x80`, zeros, the bit length of the
/// whole input, `prefix_len` bytes before it included) to whole blocks.
fn padded(prefix_len: usize, parts: &[&[u8]]) -> Zeroizing<Vec<u8>> {
    let len: usize = parts.iter().map(|p| p.len()).sum();
    let blocks = (len + 1 + 16).div_ceil(BLOCK_LEN);
    let mut message = Zeroizing::new(Vec::with_capacity(blocks * BLOCK_LEN));
    for part in parts {
        message.extend_from_slice(part);
    }
    message.push(0x80);
    message.resize(blocks * BLOCK_LEN - 16, 0);
    message.extend_from_slice(&((prefix_len + len) as u128 * 8).to_be_bytes());
    message
}

/// One SHA-512 compression of a block per lane (`words[w][lane]`), added
/// into the state of the lanes of `active` only.
#[target_feature(enable = "avx512f")]
fn compress(state: &mut [__m512i; 8], words: &[[u64; LANES]; 16], active: __mmask8) {
    // SAFETY: each `words[w]` is 8 u64s.
    let mut w: [__m512i; 16] =
        core::array::from_fn(|i| unsafe { _mm512_loadu_si512(words[i].as_ptr().cast()) });
    let add = |x, y| _mm512_add_epi64(x, y);
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    for (t, k) in K.iter().enumerate() {
        if t >= 16 {
            // W_t = σ1(W_{t−2}) + W_{t−7} + σ0(W_{t−15}) + W_{t−16}, kept in a
            // ring of 16 (the slot of W_{t−16} becomes W_t).
            let (w15, w2) = (w[(t - 15) % 16], w[(t - 2) % 16]);
            let sigma0 = _mm512_ternarylogic_epi64::<0x96>(
                _mm512_ror_epi64::<1>(w15),
                _mm512_ror_epi64::<8>(w15),
                _mm512_srli_epi64::<7>(w15),
            );
            let sigma1 = _mm512_ternarylogic_epi64::<0x96>(
                _mm512_ror_epi64::<19>(w2),
                _mm512_ror_epi64::<61>(w2),
                _mm512_srli_epi64::<6>(w2),
            );
            w[t % 16] = add(add(w[t % 16], sigma0), add(w[(t - 7) % 16], sigma1));
        }
        // 0x96: x ⊕ y ⊕ z; 0xca: x ? y : z (Ch); 0xe8: majority (Maj).
        let big_sigma1 = _mm512_ternarylogic_epi64::<0x96>(
            _mm512_ror_epi64::<14>(e),
            _mm512_ror_epi64::<18>(e),
            _mm512_ror_epi64::<41>(e),
        );
        let choice = _mm512_ternarylogic_epi64::<0xca>(e, f, g);
        let k = _mm512_set1_epi64(*k as i64);
        let t1 = add(add(h, big_sigma1), add(choice, add(k, w[t % 16])));
        let big_sigma0 = _mm512_ternarylogic_epi64::<0x96>(
            _mm512_ror_epi64::<28>(a),
            _mm512_ror_epi64::<34>(a),
            _mm512_ror_epi64::<39>(a),
        );
        let majority = _mm512_ternarylogic_epi64::<0xe8>(a, b, c);
        let t2 = add(big_sigma0, majority);
        (h, g, f, e, d, c, b, a) = (g, f, e, add(d, t1), c, b, a, add(t1, t2));
    }
    let mut working = [a, b, c, d, e, f, g, h];
    for (s, v) in state.iter_mut().zip(working) {
        *s = _mm512_mask_add_epi64(*s, active, *s, v);
    }
    // The schedule and the working variables derive from the messages
    // (private inputs).
    wipe(&mut w);
    wipe(&mut working);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::group::xmd::expand_message_xmd;
    use sha2::{Digest, Sha512};

    /// Messages of every length around the block and padding boundaries,
    /// split into parts at varying places.
    fn messages() -> Vec<Vec<u8>> {
        (0..300usize)
            .map(|len| (0..len).map(|i| (i * 31 + len) as u8).collect())
            .collect()
    }

    #[test]
    fn digests_match_sha2() {
        let messages = messages();
        let parts: Vec<Vec<&[u8]>> = messages
            .iter()
            .map(|m| {
                let (x, y) = m.split_at(m.len() / 3);
                vec![x, &[][..], y]
            })
            .collect();
        let Some(cpu) = LaneCpu::detect_for(crate::group::lanes::LaneSet::Ifma) else {
            eprintln!("skipped: the IFMA engine is not selected");
            return;
        };
        for prefix in [&[][..], &[0u8; 128][..], &[7u8; 256][..]] {
            let lanes = digest_each(cpu, prefix, &parts);
            for (m, digest) in messages.iter().zip(lanes.iter()) {
                let expected = Sha512::new()
                    .chain_update(prefix)
                    .chain_update(m)
                    .finalize();
                assert_eq!(
                    digest[..],
                    expected[..],
                    "{} bytes after {}",
                    m.len(),
                    prefix.len()
                );
            }
        }
    }

    #[test]
    fn expansions_match_expand_message_xmd() {
        let messages = messages();
        let refs: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
        let Some(cpu) = LaneCpu::detect_for(crate::group::lanes::LaneSet::Ifma) else {
            eprintln!("skipped: the IFMA engine is not selected");
            return;
        };
        for dst in [
            &b"HashToGroup-OPRFV1-\x00-ristretto255-SHA512"[..],
            &[0x5a; 255][..],
        ] {
            let lanes = expand_message_xmd_64_each(cpu, &refs, dst);
            for (m, uniform) in refs.iter().zip(lanes.iter()) {
                assert_eq!(uniform[..], expand_message_xmd::<Sha512>(&[m], dst, 64)[..]);
            }
        }
    }
}
