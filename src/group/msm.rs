//! Variable-time multi-scalar multiplication `Σ s_i·P_i` by Pippenger's
//! bucket method, written once over the group trait for the groups whose
//! crates have no fast one of their own (P-256). Public data only: the
//! running time depends on the scalars.

use super::PrimeOrderGroup;

/// The bucket window (bits per digit) that minimizes the number of group
/// additions for `n` points and `bits`-bit scalars: per window, one
/// addition per point into its bucket and about `2·2^c` to sum the
/// buckets, plus `c` doublings between windows.
fn window_bits(n: usize, bits: usize) -> usize {
    (1..=16)
        .min_by_key(|&c| bits.div_ceil(c) * (n + (2usize << c) + c))
        .expect("a non-empty range")
}

/// The `c`-bit digit of a little-endian scalar starting at bit `start`.
fn digit(le: &[u8], start: usize, c: usize) -> usize {
    let mut value = 0usize;
    for bit in 0..c {
        let position = start + bit;
        let byte = le.get(position / 8).copied().unwrap_or(0);
        value |= usize::from((byte >> (position % 8)) & 1) << bit;
    }
    value
}

/// `Σ s_i·P_i` over `G`, with each scalar given as little-endian bytes
/// (at most `bits` significant bits). Variable time.
pub(crate) fn pippenger_vartime<G: PrimeOrderGroup>(
    scalars_le: &[impl AsRef<[u8]>],
    points: &[G::Element],
    bits: usize,
) -> G::Element {
    let n = scalars_le.len().min(points.len());
    let c = window_bits(n, bits);
    let windows = bits.div_ceil(c);
    let mut total = G::identity();
    let mut buckets: Vec<Option<G::Element>> = vec![None; (1 << c) - 1];
    for window in (0..windows).rev() {
        for _ in 0..c {
            total = G::add(&total, &total);
        }
        buckets.iter_mut().for_each(|b| *b = None);
        for (scalar, point) in scalars_le.iter().zip(points) {
            let d = digit(scalar.as_ref(), window * c, c);
            if d != 0 {
                let bucket = &mut buckets[d - 1];
                *bucket = Some(match bucket.take() {
                    None => point.clone(),
                    Some(sum) => G::add(&sum, point),
                });
            }
        }
        // Σ_d d·bucket_d as a running sum from the top bucket down.
        let mut running: Option<G::Element> = None;
        let mut window_sum: Option<G::Element> = None;
        for bucket in buckets.iter().rev() {
            if let Some(b) = bucket {
                running = Some(match running {
                    None => b.clone(),
                    Some(r) => G::add(&r, b),
                });
            }
            if let Some(r) = &running {
                window_sum = Some(match window_sum {
                    None => r.clone(),
                    Some(w) => G::add(&w, r),
                });
            }
        }
        if let Some(w) = window_sum {
            total = G::add(&total, &w);
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_grows_with_the_batch() {
        assert!(window_bits(1, 256) <= 2);
        assert!(window_bits(1024, 256) >= 6);
        assert!(window_bits(1 << 16, 256) > window_bits(1024, 256));
    }

    #[test]
    fn digits_cross_byte_boundaries() {
        let le = [0b1010_0000u8, 0b0000_0111];
        assert_eq!(digit(&le, 5, 6), 0b11_1101);
        assert_eq!(digit(&le, 14, 8), 0);
        assert_eq!(digit(&le, 0, 5), 0);
    }
}
