//! Entry points for the fuzz targets only, compiled under `cfg(fuzzing)`
//! (which `cargo fuzz` sets; never in a released build): the 8-lane
//! engines' hash-to-group maps on arbitrary uniform bytes. The public API
//! reaches those maps only through `expand_message`'s output, so without
//! these a fuzzer could never choose the map's input (zero, exceptional
//! field elements, non-canonical values). Each returns `None` where the
//! engines do not run (neither AVX-512 IFMA nor AVX2, or
//! `OBLIVEX_BACKEND=portable`).

/// ristretto255: `2·h_i·H_i` encoded (32 bytes each) for `H_i` RFC 9496's
/// one-way map of the 64 bytes `uniform[i]` and `h_i < 2^253` the
/// little-endian `half_scalars[i]`, computed on the engine.
pub fn ristretto255_map_and_blind(
    uniform: &[[u8; 64]],
    half_scalars: &[[u8; 32]],
) -> Option<Vec<u8>> {
    #[cfg(target_arch = "x86_64")]
    {
        assert!(half_scalars.iter().all(|h| h[31] < 0x20), "h_i < 2^253");
        let cpu = super::lanes::LaneCpu::detect()?;
        let mut out = vec![0u8; 32 * uniform.len()];
        super::lanes::ristretto255::hash_mul_encode(cpu, uniform, half_scalars, &mut out)?;
        Some(out)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (uniform, half_scalars);
        None
    }
}

/// P-256: `s_i·H_i` encoded (33 bytes each) for `H_i` the point RFC 9380's
/// `P256_XMD:SHA-256_SSWU_RO_` maps the 96 bytes `uniform[i]` to (two
/// field elements of 48 bytes, each reduced modulo p, mapped and added)
/// and `s_i < q` the little-endian `scalars[i]`, computed on the engine;
/// `Some(None)` when some `H_i` is the identity.
pub fn p256_map_and_blind(uniform: &[[u8; 96]], scalars: &[[u8; 32]]) -> Option<Option<Vec<u8>>> {
    #[cfg(target_arch = "x86_64")]
    {
        let cpu = super::lanes::LaneCpu::detect()?;
        let mut out = vec![0u8; 33 * uniform.len()];
        let blinded = super::lanes::p256::hash_mul_encode(cpu, uniform, scalars, &mut out)?;
        Some(blinded.map(|_| out))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (uniform, scalars);
        None
    }
}
