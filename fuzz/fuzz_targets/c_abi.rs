//! The C ABI driven as a C caller would, with fuzzer-chosen lengths,
//! counts, capacities, enum values and bytes (every buffer really holds
//! the bytes its length claims: anything else is the caller's undefined
//! behaviour, not a bad input). Every call must return a documented status
//! (never `OBLIVEX_ERR_PANIC`), and a call that fails must leave every
//! output buffer and written-count untouched.

#![no_main]

use core::ptr;

use std::any::TypeId;

use libfuzzer_sys::fuzz_target;
use oblivex::ffi::*;
use oblivex_fuzz::{cached, Cursor};

const SENTINEL: u8 = 0xA5;
const UNWRITTEN: usize = usize::MAX;

/// An output buffer and its written-count, to check "nothing written on
/// error".
struct Out {
    buf: Vec<u8>,
    written: usize,
}

impl Out {
    fn new(capacity: usize) -> Out {
        Out {
            buf: vec![SENTINEL; capacity],
            written: UNWRITTEN,
        }
    }

    fn ptr(&mut self) -> *mut u8 {
        self.buf.as_mut_ptr()
    }

    fn check(&self, status: oblivex_status) {
        assert_ne!(status, OBLIVEX_ERR_PANIC, "a panic reached the C ABI");
        if status == OBLIVEX_OK {
            assert!(self.written <= self.buf.len());
            assert!(
                self.buf[self.written..].iter().all(|&b| b == SENTINEL),
                "wrote past `written`"
            );
        } else {
            assert_eq!(self.written, UNWRITTEN, "written set on error {status:?}");
            assert!(
                self.buf.iter().all(|&b| b == SENTINEL),
                "output written on error {status:?}"
            );
        }
    }
}

#[path = "c_abi/dkg.rs"]
mod dkg;

fuzz_target!(|data: &[u8]| {
    let mut input = Cursor::new(data);
    match input.byte() {
        // The DKG's rounds: a new selector, so the other targets' seeds
        // (first byte below 248) keep their meaning.
        248.. => dkg::dkg_rounds(&mut input),
        b => match b % 8 {
            0 => modexp(&mut input),
            1 => server_evaluate(&mut input),
            2 => oprf_client(&mut input),
            3 => checked_client(&mut input),
            4 => decoders(&mut input),
            5 => threshold_server(&mut input),
            6 => threshold_client(&mut input),
            _ => elgamal_and_bls(&mut input),
        },
    }
});

/// A suite value: mostly ristretto255, the cheapest group here; P-256
/// and BLS12-381 G1 one input in 16; otherwise a value that names no
/// suite. The wrappers are the same code for every suite (each group's own
/// decoders and checks have the decode and client_verify targets), and
/// without the IFMA engines a P-256 flow costs milliseconds under coverage
/// instrumentation. The FFDHE suites are left out: one of their calls
/// costs 30 ms to a second here (a 2048-bit exponent per element), which
/// would hold the target to a few executions per second; their wrappers
/// are the ones fuzzed here, their arithmetic is the modexp target's.
fn suite(input: &mut Cursor<'_>) -> oblivex_suite {
    const NO_SUITE: [i32; 8] = [0, 7, 8, -1, 1000, i32::MAX, i32::MIN, -7];
    oblivex_suite(match input.byte() {
        0..=207 => 1,
        b @ 208..=223 => i32::from(b % 2) + 2,
        b => NO_SUITE[usize::from(b % 8)],
    })
}

/// A `kappa` for the checked client: mostly 64..=128 (at most 4 padding
/// elements), sometimes 16..=63, 0 (the default) or out of range. A kappa
/// below 16 is valid but pads a small batch with up to 256 elements: the
/// Rust tests cover it, here it would cost tens of milliseconds an input.
fn kappa(input: &mut Cursor<'_>) -> u32 {
    match input.byte() {
        b @ 0..=199 => 64 + u32::from(b) % 65,
        b @ 200..=231 => 16 + u32::from(b) % 48,
        232..=239 => 0,
        b => 129 + u32::from(b - 240) * 0x0fff_ffff,
    }
}

fn modexp(input: &mut Cursor<'_>) {
    let modulus = input.sized(32);
    let mut ctx = ptr::null_mut();
    // SAFETY: the modulus buffer holds `len` bytes; `ctx` is writable.
    let status = unsafe { oblivex_mont_ctx_new(modulus.as_ptr(), modulus.len(), &mut ctx) };
    assert_ne!(status, OBLIVEX_ERR_PANIC);
    assert_eq!(status == OBLIVEX_OK, !ctx.is_null());
    let count = usize::from(input.byte() % 12);
    let base_len = match input.byte() {
        255 => 2049,
        b => usize::from(b % 48),
    };
    let exponent_len = match input.byte() {
        255 => 2049,
        b => usize::from(b % 24),
    };
    let bases = input.padded(count * base_len);
    let exponents = input.padded(count * exponent_len);
    let mut out = Out::new(usize::from(input.u16() % 3200));
    // SAFETY: every buffer holds the bytes its length and count claim; a
    // NULL context is a documented error.
    let status = unsafe {
        oblivex_mod_exp_batch(
            ctx,
            bases.as_ptr(),
            bases.len(),
            exponents.as_ptr(),
            exponents.len(),
            count,
            out.ptr(),
            out.buf.len(),
            &mut out.written,
        )
    };
    out.check(status);
    // SAFETY: NULL or the live context made above, freed once.
    unsafe { oblivex_mont_ctx_free(ctx) };
}

/// A server of `suite_id` with a derived key (NULL if the suite or mode is
/// not one), made once per process and kept: fixed setup, not the input's
/// work.
fn server(suite_id: oblivex_suite, mode: oblivex_oprf_mode) -> *mut oblivex_oprf_server {
    let key = (
        TypeId::of::<oblivex_oprf_server>(),
        mode.0 as u8,
        suite_id.0 as u32 as usize,
    );
    *cached(key, || {
        let mut server = ptr::null_mut();
        // SAFETY: the seed and info are readable; `server` is writable.
        let status = unsafe {
            oblivex_oprf_server_derive(
                suite_id,
                mode,
                [7u8; 32].as_ptr(),
                32,
                ptr::null(),
                0,
                &mut server,
            )
        };
        assert!(status == OBLIVEX_OK || server.is_null());
        server
    })
}

fn server_evaluate(input: &mut Cursor<'_>) {
    let suite_id = suite(input);
    let mode = oblivex_oprf_mode(i32::from(input.byte() % 4));
    let server = server(suite_id, mode);
    let blinded = input.sized(64);
    let info = input.field(1);
    let mut out = Out::new(usize::from(input.u16()));
    let mut proof = Out::new(usize::from(input.byte()));
    // SAFETY: buffers as their lengths claim; NULL server is an error.
    let status = unsafe {
        oblivex_oprf_server_evaluate(
            server,
            blinded.as_ptr(),
            blinded.len(),
            info.as_ptr(),
            info.len(),
            out.ptr(),
            out.buf.len(),
            &mut out.written,
            proof.ptr(),
            proof.buf.len(),
            &mut proof.written,
        )
    };
    out.check(status);
    proof.check(status);
}

/// `count` inputs of fuzzer-chosen lengths, as C pointer and length arrays.
fn inputs(input: &mut Cursor<'_>) -> Buffers {
    let count = usize::from(input.byte() % 5);
    Buffers::new((0..count).map(|_| input.field(1).to_vec()).collect())
}

/// Byte strings as a C caller passes them: parallel pointer and length
/// arrays (the pointers stay valid while `owned` lives: its strings'
/// heap buffers never move).
struct Buffers {
    /// Keeps the pointed-to bytes alive.
    _owned: Vec<Vec<u8>>,
    ptrs: Vec<*const u8>,
    lens: Vec<usize>,
}

impl Buffers {
    fn new(owned: Vec<Vec<u8>>) -> Buffers {
        let ptrs = owned.iter().map(|b| b.as_ptr()).collect();
        let lens = owned.iter().map(Vec::len).collect();
        Buffers {
            _owned: owned,
            ptrs,
            lens,
        }
    }
}

fn oprf_client(input: &mut Cursor<'_>) {
    let suite_id = suite(input);
    let mode = oblivex_oprf_mode(i32::from(input.byte() % 4));
    let messages = inputs(input);
    let info = input.field(1);
    let public_key = input.field(4);
    let mut blinded = Out::new(usize::from(input.u16() % 4096));
    let mut batch = ptr::null_mut();
    // SAFETY: arrays of `count` entries, buffers as their lengths claim.
    let status = unsafe {
        oblivex_oprf_batch_blind(
            suite_id,
            mode,
            messages.ptrs.as_ptr(),
            messages.lens.as_ptr(),
            messages.ptrs.len(),
            info.as_ptr(),
            info.len(),
            public_key.as_ptr(),
            public_key.len(),
            blinded.ptr(),
            blinded.buf.len(),
            &mut blinded.written,
            &mut batch,
        )
    };
    blinded.check(status);
    let evaluated = input.sized(64);
    let proof = input.field(1);
    let mut outputs = Out::new(usize::from(input.u16() % 1024));
    // SAFETY: as above; a NULL batch is a documented error.
    let status = unsafe {
        oblivex_oprf_batch_finalize(
            batch,
            evaluated.as_ptr(),
            evaluated.len(),
            proof.as_ptr(),
            proof.len(),
            outputs.ptr(),
            outputs.buf.len(),
            &mut outputs.written,
        )
    };
    outputs.check(status);
    // SAFETY: NULL or live, freed once.
    unsafe { oblivex_oprf_batch_free(batch) };
}

fn checked_client(input: &mut Cursor<'_>) {
    let suite_id = suite(input);
    let check = oblivex_check(i32::from(input.byte() % 4));
    let kappa = kappa(input);
    let messages = inputs(input);
    let server = server(suite_id, OBLIVEX_OPRF_MODE_OPRF);
    // The honest server's public key, or the input's.
    let public_key = if input.byte() & 1 == 0 && !server.is_null() {
        let mut key = Out::new(1024);
        // SAFETY: a live server; the buffer is as long as it says.
        let s = unsafe {
            oblivex_oprf_server_public_key(server, key.ptr(), key.buf.len(), &mut key.written)
        };
        assert_eq!(s, OBLIVEX_OK);
        key.buf.truncate(key.written);
        key.buf
    } else {
        input.field(4).to_vec()
    };
    let mut request = Out::new(usize::from(input.u16() % 8192));
    let mut batch = ptr::null_mut();
    // SAFETY: arrays of `count` entries, buffers as their lengths claim.
    let status = unsafe {
        oblivex_checked_oprf_batch_blind(
            suite_id,
            check,
            kappa,
            public_key.as_ptr(),
            public_key.len(),
            messages.ptrs.as_ptr(),
            messages.lens.as_ptr(),
            messages.ptrs.len(),
            request.ptr(),
            request.buf.len(),
            &mut request.written,
            &mut batch,
        )
    };
    request.check(status);
    // Either an honest answer from a server of this suite, or the input's.
    let response = if input.byte() & 1 == 0 && status == OBLIVEX_OK {
        let mut answer = Out::new(request.written);
        // SAFETY: the request just written; the answer buffer is as long;
        // OPRF mode needs no proof buffer.
        let s = unsafe {
            oblivex_oprf_server_evaluate(
                server,
                request.buf.as_ptr(),
                request.written,
                ptr::null(),
                0,
                answer.ptr(),
                answer.buf.len(),
                &mut answer.written,
                ptr::null_mut(),
                0,
                ptr::null_mut(),
            )
        };
        assert_eq!(s, OBLIVEX_OK);
        answer.buf
    } else {
        input.sized(64).to_vec()
    };
    let mut outputs = Out::new(usize::from(input.u16() % 1024));
    // SAFETY: as above; a NULL batch is a documented error.
    let status = unsafe {
        oblivex_checked_oprf_batch_finalize(
            batch,
            response.as_ptr(),
            response.len(),
            outputs.ptr(),
            outputs.buf.len(),
            &mut outputs.written,
        )
    };
    outputs.check(status);
    // SAFETY: NULL or live, freed once.
    unsafe { oblivex_checked_oprf_batch_free(batch) };
}

fn decoders(input: &mut Cursor<'_>) {
    let suite_id = suite(input);
    let which = input.byte() % 3;
    let encoded = input.sized(64);
    let mut out = Out::new(usize::from(input.u16() % 4096));
    // SAFETY (all three): the encoding holds `len` bytes; the handle
    // pointer is writable.
    unsafe {
        match which {
            0 => round_trip(
                encoded,
                &mut out,
                |h| oblivex_key_share_from_bytes(suite_id, encoded.as_ptr(), encoded.len(), h),
                oblivex_key_share_to_bytes,
                oblivex_key_share_free,
            ),
            1 => round_trip(
                encoded,
                &mut out,
                |h| oblivex_commitments_from_bytes(suite_id, encoded.as_ptr(), encoded.len(), h),
                oblivex_commitments_to_bytes,
                oblivex_commitments_free,
            ),
            _ => round_trip(
                encoded,
                &mut out,
                |h| oblivex_bls_key_set_from_bytes(encoded.as_ptr(), encoded.len(), h),
                oblivex_bls_key_set_to_bytes,
                oblivex_bls_key_set_free,
            ),
        }
    }
}

/// Decodes `encoded` into a handle (`from_bytes`), encodes it back into
/// `out` (`to_bytes`, which must refuse a NULL handle cleanly) and frees
/// it: whatever decoded must encode to exactly `encoded`.
///
/// # Safety
/// `from_bytes` reads only `encoded` and writes only the handle pointer.
unsafe fn round_trip<T>(
    encoded: &[u8],
    out: &mut Out,
    from_bytes: impl FnOnce(*mut *mut T) -> oblivex_status,
    to_bytes: unsafe extern "C" fn(*const T, *mut u8, usize, *mut usize) -> oblivex_status,
    free: unsafe extern "C" fn(*mut T),
) {
    let mut handle = ptr::null_mut();
    let decoded = from_bytes(&mut handle);
    assert_ne!(decoded, OBLIVEX_ERR_PANIC);
    // SAFETY: `handle` is NULL or the live handle just made; `out` holds
    // its capacity.
    let status = unsafe { to_bytes(handle, out.ptr(), out.buf.len(), &mut out.written) };
    out.check(status);
    if decoded == OBLIVEX_OK && out.written != UNWRITTEN {
        assert_eq!(&out.buf[..out.written], encoded);
    }
    // SAFETY: NULL or live, freed once.
    unsafe { free(handle) };
}

/// A 2-of-3 dealing on `suite_id` (NULLs if the suite is not one), made
/// once per process and kept.
fn dealt(suite_id: oblivex_suite) -> ([*mut oblivex_key_share; 3], *mut oblivex_commitments) {
    let key = (
        TypeId::of::<oblivex_commitments>(),
        0,
        suite_id.0 as u32 as usize,
    );
    *cached(key, || {
        let mut shares = [ptr::null_mut(); 3];
        let mut commitments = ptr::null_mut();
        let mut secret = vec![0u8; oblivex_suite_scalar_len(suite_id)];
        if let Some(last) = secret.last_mut() {
            *last = 9;
        }
        // Scalars are big-endian except ristretto255's (little-endian, RFC
        // 9496): the value 9 either way.
        if suite_id == OBLIVEX_SUITE_RISTRETTO255_SHA512 {
            secret.reverse();
        }
        // SAFETY: the secret holds its length; `shares` has room for 3.
        let status = unsafe {
            oblivex_threshold_deal(
                suite_id,
                secret.as_ptr(),
                secret.len(),
                2,
                3,
                shares.as_mut_ptr(),
                &mut commitments,
            )
        };
        assert_ne!(status, OBLIVEX_ERR_PANIC);
        (shares, commitments)
    })
}

fn threshold_server(input: &mut Cursor<'_>) {
    let suite_id = suite(input);
    let (shares, _) = dealt(suite_id);
    let quorum: Vec<u16> = (0..input.byte() % 5).map(|_| input.u16() % 6).collect();
    let request = input.sized(64);
    let mut out = Out::new(usize::from(input.u16() % 4096));
    let share = shares[usize::from(input.byte() % 3)];
    // SAFETY: buffers as their lengths claim; the share is NULL or live.
    let status = unsafe {
        oblivex_threshold_server_evaluate(
            share,
            quorum.as_ptr(),
            quorum.len(),
            request.as_ptr(),
            request.len(),
            out.ptr(),
            out.buf.len(),
            &mut out.written,
        )
    };
    out.check(status);
}

fn threshold_client(input: &mut Cursor<'_>) {
    let suite_id = suite(input);
    let (shares, commitments) = dealt(suite_id);
    let messages = inputs(input);
    let mut request = Out::new(usize::from(input.u16() % 8192));
    let mut client = ptr::null_mut();
    // SAFETY: arrays of `count` entries, buffers as their lengths claim.
    let status = unsafe {
        oblivex_threshold_oprf_batch_blind(
            commitments,
            messages.ptrs.as_ptr(),
            messages.lens.as_ptr(),
            messages.ptrs.len(),
            ptr::null(),
            0,
            // kappa 128, the largest: the fewest padding elements, so the
            // fewest multiplications per answer.
            128,
            request.ptr(),
            request.buf.len(),
            &mut request.written,
            &mut client,
        )
    };
    request.check(status);
    // Up to four answers: honest ones (when the request exists) or the
    // input's; mostly up to three (the third already names a cheater).
    let mut answers: Vec<Vec<u8>> = Vec::new();
    let mut ids: Vec<u16> = Vec::new();
    let answer_count = match input.byte() {
        b @ 0..=239 => b % 4,
        _ => 4,
    };
    for _ in 0..answer_count {
        ids.push(input.u16() % 5);
        let honest_from = usize::from(input.byte());
        if honest_from < 3 && status == OBLIVEX_OK {
            let mut answer = Out::new(request.written);
            // SAFETY: the request just written; the answer buffer is as long.
            let s = unsafe {
                oblivex_threshold_server_evaluate(
                    shares[honest_from],
                    ptr::null(),
                    0,
                    request.buf.as_ptr(),
                    request.written,
                    answer.ptr(),
                    answer.buf.len(),
                    &mut answer.written,
                )
            };
            assert_eq!(s, OBLIVEX_OK);
            answers.push(answer.buf);
        } else {
            answers.push(input.sized(64).to_vec());
        }
    }
    let answers = Buffers::new(answers);
    let mut outputs = Out::new(usize::from(input.u16() % 1024));
    let mut cheaters = vec![0xFFFFu16; usize::from(input.byte() % 6)];
    let mut cheaters_written = UNWRITTEN;
    // SAFETY: arrays of `count` entries; buffers as their lengths
    // claim; a NULL client is a documented error.
    let status = unsafe {
        oblivex_threshold_oprf_batch_finalize(
            client,
            ids.as_ptr(),
            answers.ptrs.as_ptr(),
            answers.lens.as_ptr(),
            ids.len(),
            outputs.ptr(),
            outputs.buf.len(),
            &mut outputs.written,
            cheaters.as_mut_ptr(),
            cheaters.len(),
            &mut cheaters_written,
        )
    };
    outputs.check(status);
    // The cheater list is also written on these two failures (documented).
    let names_cheaters = matches!(
        status,
        OBLIVEX_OK | OBLIVEX_ERR_VERIFICATION_FAILED | OBLIVEX_ERR_NOT_ENOUGH_RESPONSES
    );
    if names_cheaters {
        assert!(cheaters_written <= cheaters.len());
        assert!(
            cheaters[..cheaters_written]
                .iter()
                .all(|id| ids.contains(id)),
            "named a server that did not answer"
        );
    } else {
        assert_eq!(cheaters_written, UNWRITTEN);
        assert!(cheaters.iter().all(|&c| c == 0xFFFF));
    }
    // SAFETY: NULL or live, freed once.
    unsafe { oblivex_threshold_oprf_batch_free(client) };
}

fn elgamal_and_bls(input: &mut Cursor<'_>) {
    let suite_id = suite(input);
    let public_key = input.field(4);
    let message = input.field(1);
    let mut ciphertext = Out::new(usize::from(input.u16() % 2048));
    // SAFETY: buffers as their lengths claim.
    let status = unsafe {
        oblivex_elgamal_encrypt(
            suite_id,
            public_key.as_ptr(),
            public_key.len(),
            message.as_ptr(),
            message.len(),
            ciphertext.ptr(),
            ciphertext.buf.len(),
            &mut ciphertext.written,
        )
    };
    ciphertext.check(status);
    let signature = input.field(1);
    // SAFETY: buffers as their lengths claim.
    let status = unsafe {
        oblivex_bls_verify(
            public_key.as_ptr(),
            public_key.len(),
            message.as_ptr(),
            message.len(),
            signature.as_ptr(),
            signature.len(),
        )
    };
    assert_ne!(status, OBLIVEX_ERR_PANIC);
    assert_ne!(status, OBLIVEX_OK, "a signature from nowhere verified");
}
