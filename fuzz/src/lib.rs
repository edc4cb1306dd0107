//! Helpers shared by the fuzz targets: a deterministic RNG (so an input
//! replays exactly, including the blinds and verification factors it
//! leads to), a per-process cache for fixed setup, a cursor that splits
//! the fuzzer's bytes into fields, GMP's modular exponentiation (the
//! modexp targets' reference) with the check both modexp targets run,
//! OpenSSL's next to the `BN_mod_exp` shim (the bn_mod_exp target's), and
//! the fixed old sharing of the DKG target's refresh and resharing.

use std::any::{Any, TypeId};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

pub mod dkg;
pub mod gmp;
pub mod modexp;
pub mod openssl;

#[path = "../../tests/support/replay_rng.rs"]
mod replay_rng;

/// The targets' RNG: every replay of an input draws the same coins.
pub use replay_rng::ReplayRng as FuzzRng;

/// A key of [`cached`]: (group type, target-chosen tag, size).
pub type CacheKey = (TypeId, u8, usize);

/// The values [`cached`] keeps, one per key, each of its own type.
type ValueCache = RefCell<HashMap<CacheKey, Rc<dyn Any>>>;

/// What `make` returns for `key`, computed on first use and kept for the
/// process (a target's fixed setup: honest runs, keys), so each input pays
/// only for its own work.
pub fn cached<T: 'static>(key: CacheKey, make: impl FnOnce() -> T) -> Rc<T> {
    thread_local! {
        static CACHE: ValueCache = RefCell::new(HashMap::new());
    }
    if let Some(hit) = CACHE.with(|c| c.borrow().get(&key).cloned()) {
        return hit.downcast::<T>().expect("one type per key");
    }
    let value: Rc<T> = Rc::new(make());
    CACHE.with(|c| c.borrow_mut().insert(key, value.clone()));
    value
}

/// Reads fields off the fuzzer's input; past the end every read is zero
/// or empty, so any input is a valid (if short) sequence of fields.
pub struct Cursor<'a> {
    data: &'a [u8],
}

impl<'a> Cursor<'a> {
    /// A cursor over `data`.
    pub fn new(data: &'a [u8]) -> Cursor<'a> {
        Cursor { data }
    }

    /// One byte.
    pub fn byte(&mut self) -> u8 {
        self.take(1).first().copied().unwrap_or(0)
    }

    /// A little-endian u16.
    pub fn u16(&mut self) -> u16 {
        u16::from(self.byte()) | (u16::from(self.byte()) << 8)
    }

    /// Up to `len` bytes.
    pub fn take(&mut self, len: usize) -> &'a [u8] {
        let (head, tail) = self.data.split_at(len.min(self.data.len()));
        self.data = tail;
        head
    }

    /// Exactly `len` bytes: the next ones, zero-filled past the end of
    /// the input.
    pub fn padded(&mut self, len: usize) -> Vec<u8> {
        let mut bytes = self.take(len).to_vec();
        bytes.resize(len, 0);
        bytes
    }

    /// As [`Cursor::padded`], `N` bytes as an array.
    pub fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut bytes = [0u8; N];
        let taken = self.take(N);
        bytes[..taken.len()].copy_from_slice(taken);
        bytes
    }

    /// A field with a one-byte length prefix, scaled by `unit` (so a short
    /// prefix can still describe a 512-byte modulus).
    pub fn field(&mut self, unit: usize) -> &'a [u8] {
        let len = usize::from(self.byte()) * unit;
        self.take(len)
    }

    /// A field whose one-byte length prefix `b` mostly gives a short
    /// length (`b` bytes for `b < 224`) and otherwise a long one
    /// (`(b − 223) · long_unit` bytes), so that most inputs stay cheap and
    /// the long sizes (FFDHE elements, large moduli) are still reached.
    pub fn sized(&mut self, long_unit: usize) -> &'a [u8] {
        let len = match self.byte() {
            b @ 0..=223 => usize::from(b),
            b => usize::from(b - 223) * long_unit,
        };
        self.take(len)
    }

    /// Everything not read yet.
    pub fn rest(&mut self) -> &'a [u8] {
        self.take(self.data.len())
    }
}
