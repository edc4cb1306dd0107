//! Helpers shared by the fuzz targets: a deterministic RNG (so an input
//! replays exactly, including the blinds and verification factors it
//! leads to) and a cursor that splits the fuzzer's bytes into fields.

use core::convert::Infallible;

use rand_core::{TryCryptoRng, TryRng};
use sha2::{Digest, Sha256};

/// SHA-256 of (seed, counter) as a byte stream. Only for fuzzing: a target
/// must behave the same on every replay of an input.
pub struct FuzzRng {
    seed: [u8; 32],
    counter: u64,
    block: [u8; 32],
    used: usize,
}

impl FuzzRng {
    /// A stream determined by `seed`.
    pub fn new(seed: &[u8]) -> FuzzRng {
        FuzzRng {
            seed: Sha256::digest(seed).into(),
            counter: 0,
            block: [0; 32],
            used: 32,
        }
    }
}

impl TryRng for FuzzRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        let mut bytes = [0u8; 4];
        self.try_fill_bytes(&mut bytes)?;
        Ok(u32::from_le_bytes(bytes))
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let mut bytes = [0u8; 8];
        self.try_fill_bytes(&mut bytes)?;
        Ok(u64::from_le_bytes(bytes))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for byte in dst {
            if self.used == self.block.len() {
                let mut hasher = Sha256::new();
                hasher.update(self.seed);
                hasher.update(self.counter.to_le_bytes());
                self.block = hasher.finalize().into();
                self.counter += 1;
                self.used = 0;
            }
            *byte = self.block[self.used];
            self.used += 1;
        }
        Ok(())
    }
}

impl TryCryptoRng for FuzzRng {}

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

    /// A field with a one-byte length prefix, scaled by `unit` (so a short
    /// prefix can still describe a 512-byte modulus).
    pub fn field(&mut self, unit: usize) -> &'a [u8] {
        let len = usize::from(self.byte()) * unit;
        self.take(len)
    }

    /// Everything not read yet.
    pub fn rest(&mut self) -> &'a [u8] {
        self.take(self.data.len())
    }
}
