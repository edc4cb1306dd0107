//! The masked table scan: per lane, the multiple of a point a signed digit
//! names, read from a table of `1·P .. 8·P` without a secret index.
//! Compiled once per instruction set (`#[lane_features]`: the `ifma` and
//! `avx2` modules include this file), for that set's points only.

use oblivex_macros::lane_features;

use super::super::toolkit::{LanePoints, LANES};

/// Per lane, `|d|·P` from the table (`empty` for 0), negated where `d <
/// 0`, and the lanes where `d = 0`: every entry is read whole and kept,
/// bit by bit, under the lanes where the digit matches (the lane masks of
/// the set's `digit_masks`).
#[lane_features]
pub(crate) fn select<T: LanePoints<Set = super::Set>>(
    table: &[T; 8],
    empty: T,
    digits: &[i64; LANES],
) -> (T, u8) {
    #[cfg(feature = "ct-planted-leak")]
    crate::planted_leak::table_index(table, (digits[0].unsigned_abs() % 8) as usize);
    let masks = super::digit_masks(digits);
    let mut chosen = empty;
    for (entry, &hit) in table.iter().zip(&masks.hits) {
        // SAFETY: the CPU has this set's features (this function's), the
        // points' (`T::Set` is this set).
        chosen = unsafe { chosen.chosen_where(entry, hit) };
    }
    // SAFETY: as above.
    (unsafe { chosen.negated_where(masks.negative) }, masks.zero)
}
