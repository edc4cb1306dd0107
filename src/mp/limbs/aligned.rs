//! Word buffers aligned for SIMD: the element storage of every backend.

use zeroize::Zeroize;

/// Alignment of every buffer, in bytes: one AVX-512 register.
pub(crate) const ALIGN_BYTES: usize = 64;
const ALIGN_WORDS: usize = ALIGN_BYTES / 8;

/// A zero-initialised buffer of `u64` words whose first word is 64-byte
/// aligned, so a SIMD backend can view whole registers in it without split
/// loads. Wiped on drop (it holds secret intermediate values).
pub(crate) struct AlignedWords {
    buf: Vec<u64>,
    start: usize,
    len: usize,
}

impl AlignedWords {
    /// `len` zero words.
    pub(crate) fn zeroed(len: usize) -> Self {
        let buf = vec![0u64; len + ALIGN_WORDS - 1];
        let start = buf.as_ptr().align_offset(ALIGN_BYTES);
        assert!(
            start < ALIGN_WORDS,
            "a u64 buffer can always be aligned within 7 words"
        );
        AlignedWords { buf, start, len }
    }
}

impl core::ops::Deref for AlignedWords {
    type Target = [u64];
    fn deref(&self) -> &[u64] {
        &self.buf[self.start..self.start + self.len]
    }
}

impl core::ops::DerefMut for AlignedWords {
    fn deref_mut(&mut self) -> &mut [u64] {
        &mut self.buf[self.start..self.start + self.len]
    }
}

impl Drop for AlignedWords {
    fn drop(&mut self) {
        self.buf.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligned_and_zeroed() {
        for len in [0, 1, 8, 13, 640] {
            let words = AlignedWords::zeroed(len);
            assert_eq!(words.len(), len);
            assert_eq!(words.as_ptr() as usize % ALIGN_BYTES, 0);
            assert!(words.iter().all(|&w| w == 0));
        }
    }
}
