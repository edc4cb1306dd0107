// Package oblivex is the Go interface to liboblivex: constant-time batch
// modular exponentiation, the RFC 9497 OPRF/VOPRF/POPRF protocols, the
// batch OPRF secure against a malicious server without proofs (the
// balancer check of Baum et al., ePrint 2024/1613), and threshold
// versions (threshold OPRF, threshold blind BLS signatures, threshold
// ElGamal decryption) in which every server's answer is checked and
// cheaters are named.
//
// The package links liboblivex through cgo and finds it with pkg-config
// (package "oblivex", installed by the library's CMake install); see
// README.md for building against an uninstalled tree.
//
// Conventions: byte slices in and out (element and scalar encodings of
// the suite; integers big-endian); errors are the sentinel values of this
// package (errors.Is(err, oblivex.ErrVerificationFailed)); every handle has
// an idempotent Close that wipes its secrets (a finalizer calls it if it
// is forgotten). Servers, key shares, commitments and modulus contexts are
// immutable and safe for concurrent use; client batches are single-use
// and not for concurrent use.
package oblivex

// #cgo pkg-config: oblivex
// #include <oblivex.h>
import "C"
