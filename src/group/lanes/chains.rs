//! What is written once for every lane field ([`LaneField`]): batch
//! inversion, and exponentiation chains run side by side. Compiled once
//! per instruction set (`#[lane_features]`: the `ifma` and `avx2`
//! modules include this file).

use oblivex_macros::lane_features;

use super::super::field::LaneField;
use super::super::toolkit::wipe;

/// `x_i^(2^k)` for each of `N` vectors, their squarings interleaved: the
/// engines' exponentiations (square roots) run `N` chains side by side,
/// because one chain of dependent squarings waits on the multiplier's
/// latency, and two interleaved take about two thirds of the time of two
/// in turn (measured here: 1.5x).
#[lane_features]
#[inline]
pub(crate) fn square_times_each<F: LaneField<Set = super::Set>, const N: usize>(
    x: &[F; N],
    k: u32,
) -> [F; N] {
    let mut x = *x;
    square_in_place_each(&mut x, k);
    x
}

/// [`square_times_each`] in place: element by element, not `[F; N]::map`,
/// whose new array a slow field's out-of-line squarings would have copied
/// back at every step.
#[lane_features]
#[inline]
fn square_in_place_each<F: LaneField<Set = super::Set>, const N: usize>(x: &mut [F; N], k: u32) {
    for _ in 0..k {
        for element in x.iter_mut() {
            // SAFETY: this function's target features.
            *element = unsafe { element.squared() };
        }
    }
}

/// `x_i · y_i` for each of `N` vectors (see [`square_times_each`]).
#[lane_features]
#[inline]
pub(crate) fn times_each<F: LaneField<Set = super::Set>, const N: usize>(
    x: &[F; N],
    y: &[F; N],
) -> [F; N] {
    // SAFETY: this function's target features.
    core::array::from_fn(|i| unsafe { x[i].times(&y[i]) })
}

/// `x_i^e` for each of `N` vectors and a public exponent `e` (big-endian
/// bytes), by sliding windows of up to 5 bits: the odd powers `x^1 ..
/// x^31` (one squaring and 15 multiplications), then a squaring per bit
/// and one multiplication per window (about one per 6 bits; fixed 4-bit
/// windows took one per 4), the `N` chains side by side (see
/// [`square_times_each`]). For fields without a shorter addition chain (a
/// generic prime's square roots and inverses). The windows are the
/// exponent's, so public; the powers may be secret and are wiped.
#[allow(
    dead_code,
    reason = "a generic prime's chains (BLS12-381's field) have no AVX2 engine yet"
)]
#[lane_features]
pub(crate) fn pow_each<F: LaneField<Set = super::Set>, const N: usize>(
    x: &[F; N],
    exponent: &[u8],
) -> [F; N] {
    const WIDTH: usize = 5;
    let bits: Vec<bool> = exponent
        .iter()
        .flat_map(|byte| (0..8).rev().map(move |i| (byte >> i) & 1 == 1))
        .collect();
    let mut squared = square_times_each(x, 1);
    // odd[i] = x^(2i + 1).
    let mut odd = Vec::with_capacity(1 << (WIDTH - 1));
    odd.push(*x);
    for i in 1..1 << (WIDTH - 1) {
        let next = times_each(&odd[i - 1], &squared);
        odd.push(next);
    }
    // SAFETY: this function's target features.
    let mut acc = [unsafe { F::one_lanes() }; N];
    // Whether acc still holds 1 (public: the exponent's leading zeros).
    let mut started = false;
    let mut i = 0;
    while i < bits.len() {
        if !bits[i] {
            if started {
                square_in_place_each(&mut acc, 1);
            }
            i += 1;
            continue;
        }
        // The longest window of at most WIDTH bits from i ending in a 1.
        let mut end = (i + WIDTH).min(bits.len());
        while !bits[end - 1] {
            end -= 1;
        }
        let value = bits[i..end].iter().fold(0, |v, &b| 2 * v + usize::from(b));
        let power = &odd[value / 2];
        if started {
            square_in_place_each(&mut acc, (end - i) as u32);
            acc = times_each(&acc, power);
        } else {
            acc = *power;
            started = true;
        }
        i = end;
    }
    wipe(&mut odd);
    wipe(core::slice::from_mut(&mut squared));
    acc
}

/// Replaces every element by its inverse with one inversion (Montgomery's
/// trick, lane by lane: 3 multiplications per element); every lane of
/// every element must be non-zero. The partial products are wiped (the
/// elements may be secret).
#[lane_features]
pub(crate) fn invert_all<F: LaneField<Set = super::Set>>(values: &mut [F]) {
    // prefix[i]: the product of the elements before i.
    let mut prefix = Vec::with_capacity(values.len());
    // SAFETY: this function's target features (here and below).
    let mut product = unsafe { F::one_lanes() };
    for v in values.iter() {
        prefix.push(product);
        // SAFETY: as above.
        product = unsafe { product.times(v) };
    }
    // The inverse of values[..i + 1] at step i.
    // SAFETY: as above.
    let mut inverse = unsafe { product.inverse() };
    for (v, before) in values.iter_mut().zip(&prefix).rev() {
        // SAFETY: as above.
        let (next, inverted) = unsafe { (inverse.times(v), inverse.times(before)) };
        *v = inverted;
        inverse = next;
    }
    wipe(&mut prefix);
}
