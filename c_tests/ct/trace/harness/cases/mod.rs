//! Every traced case: a name, its number of runs (secret variants; run 0
//! is the reference, so `runs − 1` pairs) and the function that makes one
//! run. One file per family.

mod dkg;
mod hashing;
mod modexp;
mod oprf;
mod rsa;
mod threshold;

use oblivex::group::{Bls12381G1, Ristretto255, P256};

/// One traced entry point.
pub struct Case {
    /// `family_detail`, as `ct_trace` prints it.
    pub name: &'static str,
    /// Runs compared in lockstep; which variant each tries:
    /// [`crate::variants::variant_of_run`].
    pub runs: usize,
    /// Sets up, warms up, makes the traced call, checks its result.
    pub run: fn(usize) -> Result<(), String>,
}

/// An empty region: the tracer's probe (marks, start-up alike in every
/// run) before the real cases.
fn empty(_variant: usize) -> Result<(), String> {
    crate::marks::traced((), |()| ());
    Ok(())
}

/// The cases: the probe, then the exponentiations, longest first (the cases
/// are traced two at a time, in this order, so that the two queues end
/// close together), then the curves.
pub const ALL: &[Case] = &[
    Case {
        name: "empty",
        runs: 2,
        run: empty,
    },
    Case {
        name: "modexp_4096",
        runs: 2,
        run: |v| modexp::one_modulus(4096, v),
    },
    Case {
        name: "ffdhe2048_server",
        runs: 3,
        run: oprf::ffdhe_server_evaluation,
    },
    Case {
        name: "modexp_2048",
        runs: 3,
        run: |v| modexp::one_modulus(2048, v),
    },
    Case {
        name: "modexp_1280",
        runs: 3,
        run: |v| modexp::one_modulus(1280, v),
    },
    Case {
        name: "modexp_3072",
        runs: 2,
        run: |v| modexp::one_modulus(3072, v),
    },
    Case {
        name: "rsa2048_private",
        runs: 3,
        run: rsa::private_batch,
    },
    Case {
        name: "modexp_1024",
        runs: 3,
        run: |v| modexp::one_modulus(1024, v),
    },
    // One modulus per value: the same schedule and kernels as one modulus
    // (`mp::schedule::run` with a context per lane; the moduli are public),
    // so one size traces how the secrets are packed into lanes beside their
    // own moduli; `rsa2048_private` traces it again on two 1024-bit halves.
    Case {
        name: "modexp_multi_1024",
        runs: 3,
        run: |v| modexp::per_value_moduli(1024, v),
    },
    // Public exponents (the RSA fault check): secret bases, the same public
    // exponents in every run.
    Case {
        name: "modexp_public_exponent_2048",
        runs: 3,
        run: |v| modexp::public_exponents(2048, v),
    },
    // ristretto255: 10 elements are one vector on the engine and the last
    // two on curve25519-dalek (its tail), as a server runs them.
    Case {
        name: "ristretto255_server",
        runs: 3,
        run: |v| oprf::server_evaluation::<Ristretto255>(10, v),
    },
    Case {
        name: "ristretto255_voprf_server",
        runs: 3,
        run: |v| oprf::voprf_evaluation::<Ristretto255>(8, v),
    },
    Case {
        name: "ristretto255_client_blind",
        runs: 3,
        run: |v| oprf::client_blind::<Ristretto255>(8, v),
    },
    Case {
        name: "ristretto255_client_finalize",
        runs: 3,
        run: |v| oprf::client_finalize::<Ristretto255>(8, v),
    },
    Case {
        name: "ristretto255_checked_blind",
        runs: 3,
        run: |v| oprf::checked_blind::<Ristretto255>(7, v),
    },
    Case {
        name: "ristretto255_checked_finalize",
        runs: 3,
        run: |v| oprf::checked_finalize::<Ristretto255>(7, v),
    },
    Case {
        name: "ristretto255_threshold_share",
        runs: 3,
        run: |v| threshold::share_evaluation::<Ristretto255>(8, v),
    },
    Case {
        name: "ristretto255_threshold_check",
        runs: 3,
        run: |v| threshold::client_check::<Ristretto255>(7, v),
    },
    // One DKG party's rounds, 2 of 3: dealing, both checks, its share. Two
    // runs (random coins against random coins), for the budget: what the
    // DKG adds is its own control flow and scalar arithmetic; the sparse
    // and dense scalars of the multiplications it calls are the server
    // cases'.
    Case {
        name: "ristretto255_dkg_party",
        runs: 2,
        run: dkg::party::<Ristretto255>,
    },
    Case {
        name: "ristretto255_sha512_lanes",
        runs: 3,
        run: hashing::hash_each::<Ristretto255>,
    },
    Case {
        name: "p256_server",
        runs: 3,
        run: |v| oprf::server_evaluation::<P256>(9, v),
    },
    Case {
        name: "p256_voprf_server",
        runs: 3,
        run: |v| oprf::voprf_evaluation::<P256>(8, v),
    },
    Case {
        name: "p256_client_blind",
        runs: 3,
        run: |v| oprf::client_blind::<P256>(8, v),
    },
    Case {
        name: "p256_client_finalize",
        runs: 3,
        run: |v| oprf::client_finalize::<P256>(8, v),
    },
    Case {
        name: "p256_checked_blind",
        runs: 3,
        run: |v| oprf::checked_blind::<P256>(7, v),
    },
    Case {
        name: "p256_checked_finalize",
        runs: 3,
        run: |v| oprf::checked_finalize::<P256>(7, v),
    },
    Case {
        name: "p256_elgamal_share",
        runs: 3,
        run: |v| threshold::share_evaluation::<P256>(8, v),
    },
    // BLS12-381 G1 on its 8-lane engine: one full vector each, so no
    // element takes blst's tail.
    Case {
        name: "bls12381_server",
        runs: 3,
        run: |v| oprf::server_evaluation::<Bls12381G1>(8, v),
    },
    Case {
        name: "bls12381_client_blind",
        runs: 3,
        run: |v| oprf::client_blind::<Bls12381G1>(8, v),
    },
    Case {
        name: "bls12381_client_finalize",
        runs: 3,
        run: |v| oprf::client_finalize::<Bls12381G1>(8, v),
    },
    // The checked client's blinding (the balancer's multi-scalar
    // multiplication with the secret factors): 7 inputs and the balancer
    // fill one vector. Its finalization is left out for the budget (about
    // 50 s): its check runs on spent coins, and its unblinding is
    // `bls12381_client_finalize`'s.
    Case {
        name: "bls12381_checked_blind",
        runs: 3,
        run: |v| oprf::checked_blind::<Bls12381G1>(7, v),
    },
    Case {
        name: "bls12381_signing_share",
        runs: 3,
        run: |v| threshold::share_evaluation::<Bls12381G1>(2, v),
    },
];
