//! C ABI of the RFC 9497 server: a handle holding a suite, a mode and a
//! secret key, and its one evaluation step.

use super::guard::{catch, input, optional_input, out_pointer, OutBuffer};
use super::handle::{borrow, create, free, Boxed, Handle};
use super::status::{oblivex_status, CResult, OBLIVEX_ERR_BAD_LENGTH};
use super::suite::{
    mode_from_c, oblivex_oprf_mode, oblivex_suite, with_group, PerGroup, PerSuite, Suite,
    SuiteGroup,
};
use crate::group::{encode_scalar_to_vec, encode_to_vec, PrimeOrderGroup};
use crate::message::BlindedElements;
use crate::oprf::{KeyPair, Mode, OprfServer, PoprfServer, VoprfServer};
use crate::rng::os_rng;
use crate::Zeroizing;

/// An OPRF server: a suite, a mode and a secret key. Immutable: one handle
/// may serve many threads at once. Its key is wiped when it is freed.
pub struct oblivex_oprf_server {
    _opaque: [u8; 0],
}

impl Handle for oblivex_oprf_server {
    type RustType = SuiteServer;
    type Ownership = Boxed;
}

/// What an `oblivex_oprf_server` points to: the server of its mode, for
/// its suite's group.
pub(crate) struct SuiteServer {
    mode: Mode,
    server: PerSuite<ModeServers>,
}

/// [`ModeServer`] for each group.
enum ModeServers {}

impl PerGroup for ModeServers {
    type Of<G: PrimeOrderGroup> = ModeServer<G>;
}

/// The server of one mode.
enum ModeServer<G: PrimeOrderGroup> {
    Oprf(OprfServer<G>),
    Voprf(VoprfServer<G>),
    Poprf(PoprfServer<G>),
}

impl<G: PrimeOrderGroup> ModeServer<G> {
    fn new(mode: Mode, key: KeyPair<G>) -> Self {
        match mode {
            Mode::Oprf => ModeServer::Oprf(OprfServer::new(key)),
            Mode::Voprf => ModeServer::Voprf(VoprfServer::new(key)),
            Mode::Poprf => ModeServer::Poprf(PoprfServer::new(key)),
        }
    }

    fn key(&self) -> &KeyPair<G> {
        match self {
            ModeServer::Oprf(s) => s.key(),
            ModeServer::Voprf(s) => s.key(),
            ModeServer::Poprf(s) => s.key(),
        }
    }
}

impl SuiteServer {
    fn new<G: SuiteGroup>(mode: Mode, key: KeyPair<G>) -> Self {
        SuiteServer {
            mode,
            server: G::wrap(ModeServer::new(mode, key)),
        }
    }
}

/// Shared by the three constructors: the suite and mode checked, the key
/// made, the handle stored in `*server_out`.
///
/// # Safety
/// `server_out` is NULL or points to a writable pointer.
unsafe fn new_server(
    suite: oblivex_suite,
    mode: oblivex_oprf_mode,
    server_out: *mut *mut oblivex_oprf_server,
    key: impl FnOnce(Suite, Mode) -> CResult<SuiteServer>,
) -> oblivex_status {
    catch(|| {
        let (suite, mode) = (Suite::from_c(suite)?, mode_from_c(mode)?);
        let server_out = out_pointer(server_out)?;
        let server = key(suite, mode)?;
        // SAFETY: `server_out` is non-NULL and writable by the contract.
        unsafe { create(server_out, server) };
        Ok(())
    })
}

/// Creates a server of `suite` in `mode` from an encoded secret key (the
/// suite's scalar encoding, `oblivex_suite_scalar_len` bytes). Release it
/// with `oblivex_oprf_server_free`; `*server_out` is set only on success.
///
/// Errors: `OBLIVEX_ERR_NULL_POINTER`, `OBLIVEX_ERR_UNKNOWN_SUITE`,
/// `OBLIVEX_ERR_UNKNOWN_MODE`, `OBLIVEX_ERR_INVALID_SCALAR` (wrong length,
/// not canonical, or zero).
///
/// # Safety
/// `secret_key` points to `secret_key_len` readable bytes; `server_out` to a
/// writable pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_oprf_server_new(
    suite: oblivex_suite,
    mode: oblivex_oprf_mode,
    secret_key: *const u8,
    secret_key_len: usize,
    server_out: *mut *mut oblivex_oprf_server,
) -> oblivex_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        new_server(suite, mode, server_out, |suite, mode| {
            let secret_key = input(secret_key, secret_key_len)?;
            Ok(
                with_group!(suite, G => SuiteServer::new::<G>(mode, KeyPair::from_secret_bytes(secret_key)?)),
            )
        })
    }
}

/// Creates a server whose key is RFC 9497 `DeriveKeyPair(seed, info)` for
/// this suite and mode (the key depends on the mode, as in the RFC). `info`
/// may be NULL when `info_len` is 0. Release it with
/// `oblivex_oprf_server_free`.
///
/// Errors: `OBLIVEX_ERR_NULL_POINTER`, `OBLIVEX_ERR_UNKNOWN_SUITE`,
/// `OBLIVEX_ERR_UNKNOWN_MODE`, `OBLIVEX_ERR_BAD_LENGTH` (info above
/// `OBLIVEX_MAX_INPUT_LEN`), `OBLIVEX_ERR_DERIVE_KEY_PAIR`.
///
/// # Safety
/// `seed` points to `seed_len` readable bytes, `info` to `info_len` (or is
/// NULL with 0); `server_out` to a writable pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_oprf_server_derive(
    suite: oblivex_suite,
    mode: oblivex_oprf_mode,
    seed: *const u8,
    seed_len: usize,
    info: *const u8,
    info_len: usize,
    server_out: *mut *mut oblivex_oprf_server,
) -> oblivex_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        new_server(suite, mode, server_out, |suite, mode| {
            let seed = input(seed, seed_len)?;
            let info = optional_input(info, info_len)?;
            Ok(
                with_group!(suite, G => SuiteServer::new::<G>(mode, KeyPair::derive(mode, seed, info)?)),
            )
        })
    }
}

/// Creates a server with a fresh key from the operating system's random
/// source. Release it with `oblivex_oprf_server_free`.
///
/// Errors: `OBLIVEX_ERR_NULL_POINTER`, `OBLIVEX_ERR_UNKNOWN_SUITE`,
/// `OBLIVEX_ERR_UNKNOWN_MODE`, `OBLIVEX_ERR_RNG_FAILURE`.
///
/// # Safety
/// `server_out` points to a writable pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_oprf_server_generate(
    suite: oblivex_suite,
    mode: oblivex_oprf_mode,
    server_out: *mut *mut oblivex_oprf_server,
) -> oblivex_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        new_server(suite, mode, server_out, |suite, mode| {
            let mut rng = os_rng()?;
            Ok(with_group!(suite, G => SuiteServer::new::<G>(mode, KeyPair::generate(&mut rng))))
        })
    }
}

/// Writes the server's public key `k·B` (`oblivex_suite_element_len`
/// bytes) to `public_key` and its length to `*public_key_written`: what
/// VOPRF, POPRF and checked clients verify against.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `server` is a live handle; `public_key` points to `public_key_capacity`
/// writable bytes; `public_key_written` to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_oprf_server_public_key(
    server: *const oblivex_oprf_server,
    public_key: *mut u8,
    public_key_capacity: usize,
    public_key_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `server` is NULL or live by the contract.
        let server = unsafe { borrow(server) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let out = unsafe { OutBuffer::new(public_key, public_key_capacity, public_key_written) }?;
        with_group!(match &server.server, G(server) => out.put(&encode_to_vec::<G>(server.key().public_key())))
    })
}

/// Writes the server's secret key (`oblivex_suite_scalar_len` bytes) to
/// `secret_key` and its length to `*secret_key_written`, for storing it.
/// Handle the bytes as the secret they are.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// As `oblivex_oprf_server_public_key`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_oprf_server_secret_key(
    server: *const oblivex_oprf_server,
    secret_key: *mut u8,
    secret_key_capacity: usize,
    secret_key_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `server` is NULL or live by the contract.
        let server = unsafe { borrow(server) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let out = unsafe { OutBuffer::new(secret_key, secret_key_capacity, secret_key_written) }?;
        with_group!(match &server.server, G(server) => {
            let key = Zeroizing::new(encode_scalar_to_vec::<G>(server.key().secret()));
            out.put(&key)
        })
    })
}

/// The server's step: evaluates a batch of blinded elements (the
/// concatenation of element encodings, `blinded_len` bytes) with its key in
/// its mode, writing the evaluated elements (same length, same order) to
/// `evaluated`, and in VOPRF and POPRF mode one proof for the whole batch
/// (`oblivex_suite_proof_len` bytes) to `proof`. `info` is the POPRF public
/// input (NULL/0 in the other modes). In OPRF mode `proof` may be NULL; if
/// it is given, `*proof_written` is set to 0. The checked and threshold
/// clients need no proof: serve them in OPRF mode.
///
/// Every element is an evaluation the client can use (a checked request's
/// balancer looks like any input): rate limits must count elements, not
/// calls.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER` (also a NULL
/// `proof` in VOPRF/POPRF mode), `OBLIVEX_ERR_BAD_LENGTH` (not a whole,
/// non-zero number of elements, more than 65535, info too long, or info in
/// a mode that takes none), `OBLIVEX_ERR_INVALID_ELEMENT` (any element not
/// canonical, not in the group, or the identity),
/// `OBLIVEX_ERR_BUFFER_TOO_SMALL`, `OBLIVEX_ERR_INVALID_INPUT` (POPRF info
/// gives an unusable key), `OBLIVEX_ERR_RNG_FAILURE` (proof nonce).
///
/// # Safety
/// `server` is a live handle; each (pointer, length) pair is readable or
/// writable as its role says (`info`, and `proof` in OPRF mode, may be
/// NULL); the `*_written` pointers point to writable `size_t`s.
#[no_mangle]
pub unsafe extern "C" fn oblivex_oprf_server_evaluate(
    server: *const oblivex_oprf_server,
    blinded: *const u8,
    blinded_len: usize,
    info: *const u8,
    info_len: usize,
    evaluated: *mut u8,
    evaluated_capacity: usize,
    evaluated_written: *mut usize,
    proof: *mut u8,
    proof_capacity: usize,
    proof_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `server` is NULL or live by the contract.
        let server = unsafe { borrow(server) }?;
        // SAFETY: the input pointers hold their lengths by the contract.
        let (blinded, info) = unsafe {
            (
                input(blinded, blinded_len)?,
                optional_input(info, info_len)?,
            )
        };
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let evaluated =
            unsafe { OutBuffer::new(evaluated, evaluated_capacity, evaluated_written) }?;
        // Every argument is checked before any element is decoded.
        let proof = match server.mode {
            Mode::Oprf if proof.is_null() => None,
            // SAFETY: the output pointers satisfy `OutBuffer::new`'s
            // contract (a NULL `proof` is refused there).
            _ => Some(unsafe { OutBuffer::new(proof, proof_capacity, proof_written) }?),
        };
        if server.mode != Mode::Poprf && !info.is_empty() {
            return Err(OBLIVEX_ERR_BAD_LENGTH);
        }
        evaluated.check_fits(blinded.len())?;
        with_group!(match &server.server, G(mode_server) => {
            let proof_len = match server.mode {
                Mode::Oprf => 0,
                Mode::Voprf | Mode::Poprf => crate::oprf::Proof::<G>::LEN,
            };
            if let Some(proof) = &proof {
                proof.check_fits(proof_len)?;
            }
            let request = BlindedElements::<G>::from_bytes(blinded)?;
            let (answer, proof_made) = match mode_server {
                ModeServer::Oprf(s) => (s.evaluate(&request), Vec::new()),
                ModeServer::Voprf(s) => {
                    let (answer, made) = s.evaluate(&request, &mut os_rng()?);
                    (answer, made.to_bytes())
                }
                ModeServer::Poprf(s) => {
                    let (answer, made) = s.evaluate(&request, info, &mut os_rng()?)?;
                    (answer, made.to_bytes())
                }
            };
            if let Some(proof) = proof {
                proof.put(&proof_made)?;
            }
            evaluated.put(answer.as_bytes())
        })
    })
}

/// Releases a server (its key is wiped first). NULL is ignored.
///
/// # Safety
/// `server` is NULL or a live handle, not used afterwards (by any thread).
#[no_mangle]
pub unsafe extern "C" fn oblivex_oprf_server_free(server: *mut oblivex_oprf_server) {
    // SAFETY: forwarded from this function's contract.
    unsafe { free(server) }
}
