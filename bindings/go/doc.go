// Package oblivex is the Go interface to liboblivex (C ABI 0.2):
// constant-time batch modular exponentiation, the RFC 9497
// OPRF/VOPRF/POPRF protocols, the batch OPRF secure against a malicious
// server without proofs (the balancer check of Baum et al., ePrint
// 2024/1613), and threshold versions (threshold OPRF, threshold blind BLS
// signatures, threshold ElGamal decryption) in which every server's answer
// is checked and cheaters are named.
//
// The package links liboblivex through cgo and finds it with pkg-config
// (package "oblivex", installed by the library's CMake install); see
// README.md for building against an uninstalled tree.
//
// # Clients and servers
//
// Every protocol's client has one shape: a client value made by its
// constructor holds the configuration (suite, the server's PublicKey, the
// sharing's Commitments or the BLSKeySet, κ, quorum...), and its Blind
// returns a single-use batch whose Request goes to the servers and whose
// Finalize turns their answers into outputs. The RFC 9497 mode is in the
// type, as in the Rust API: each mode has its own client, batch and
// server, which take exactly what the mode has (an info only in POPRF, a
// proof only in VOPRF and POPRF), so an argument of one mode cannot reach
// another:
//
//	OPRFClient.Blind(inputs)        -> *OPRFBatch          .Finalize(evaluated)
//	VOPRFClient.Blind(inputs)       -> *VOPRFBatch         .Finalize(evaluated, proof)
//	POPRFClient.Blind(inputs, info) -> *POPRFBatch         .Finalize(evaluated, proof)
//	CheckedClient.Blind             -> *CheckedBatch       .Finalize(response)
//	ThresholdOPRFClient.Blind       -> *ThresholdOPRFBatch .Finalize(responses)
//	BLSClient.Blind                 -> *BLSBatch           .Finalize(responses)
//	ElGamalClient.Blind             -> *ElGamalBatch       .Finalize(responses)
//
// The servers: OPRFServer.Evaluate(blinded) (also for the checked batch),
// VOPRFServer.Evaluate(blinded) and POPRFServer.Evaluate(blinded, info)
// for the single-key protocols, and KeyShare.Evaluate(quorum, request) for
// every threshold protocol. Deal and
// DealBLS share keys; PublicKey, Commitments and BLSKeySet are the public
// values clients are made with (ParsePublicKey, ParseCommitments,
// ParseBLSKeySet decode and validate received ones).
//
// # Conventions
//
// Byte slices in and out: element and scalar encodings of the suite,
// integers big-endian. Errors are the sentinel values of this package, one
// per status code of the C API that the package can return
// (errors.Is(err, oblivex.ErrVerificationFailed)); the threshold clients'
// failures that name cheaters are a *CheatingServersError. Every type that
// owns a C handle has an idempotent Close (an io.Closer) that wipes its
// secrets; a finalizer calls it if it is forgotten. Servers, key shares,
// commitments, key sets, modulus contexts and clients are immutable and
// safe for concurrent use; a batch is single-use: the Finalize that gets
// as far as checking the answers spends it (later calls give
// ErrBatchUsed), while one refused for a malformed argument leaves it
// usable. No bytes, ids or enum values make the package panic; a nil
// handle argument gives ErrNullPointer.
package oblivex

// #cgo pkg-config: oblivex
// #include <oblivex.h>
import "C"
