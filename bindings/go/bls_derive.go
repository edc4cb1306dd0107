package oblivex

// #include <oblivex.h>
import "C"

import (
	"errors"
	"unsafe"
)

// BLSSignerKey is the G2 key of a signer's share (sk_j times the G2
// generator): what each signer publishes after a DKG so that anyone can
// build the key set with DeriveBLSKeySet. ErrSuiteMismatch for a share
// of another suite than SuiteBLS12381G1.
func (k *KeyShare) BLSSignerKey() (*BLSPublicKey, error) {
	out := newOut(BLSPublicKeyLen)
	err := k.res.use(func(p *C.struct_oblivex_key_share) error {
		return check(C.oblivex_bls_signer_key(p, out.ptr(), out.capacity(), &out.written))
	})
	if err != nil {
		return nil, err
	}
	return &BLSPublicKey{encoded: out.bytes()}, nil
}

// DeriveBLSKeySet builds the key set of a t-of-m BLS key shared by a DKG,
// which nobody can compute the G2 public key of alone: commitments are the
// run's (suite SuiteBLS12381G1, t of them), parties is m, and signerKeys
// the G2 keys the signers published (KeyShare.BLSSignerKey; Party the
// signer, Elements its key), from any signers of 1..m. Each key is checked
// against the signer's public share by a pairing; the public key is
// interpolated from t right keys and checked against the commitments'
// public key, and the keys of signers that published none or a wrong one
// are interpolated too. It returns the key set and the signers whose key
// was wrong (did not decode or failed its check). Public data only.
//
// With fewer than t right keys (ErrNotEnoughResponses) the error is a
// *CheatingServersError naming the wrong ones. ErrSuiteMismatch,
// ErrInvalidThreshold (not 1 <= t <= m <= MaxParties), ErrInvalidPartyID
// (an id zero, repeated or above m).
func DeriveBLSKeySet(commitments *Commitments, parties int, signerKeys []Response) (*BLSKeySet, []uint16, error) {
	if commitments == nil {
		return nil, nil, ErrNullPointer
	}
	partyIDs, keys := splitResponses(signerKeys)
	arrays := newCArrays(keys)
	defer arrays.free()
	cheaters := make([]uint16, len(signerKeys)+1)
	var cheatersWritten C.size_t
	var p *C.struct_oblivex_bls_key_set
	err := commitments.res.use(func(cp *C.struct_oblivex_commitments) error {
		return check(C.oblivex_bls_key_set_derive(cp, size(parties), ids(partyIDs), arrays.ptrs, arrays.lens, size(len(signerKeys)),
			(*C.uint16_t)(unsafe.Pointer(&cheaters[0])), size(len(cheaters)), &cheatersWritten, &p))
	})
	named := append([]uint16{}, cheaters[:cheatersWritten]...)
	if errors.Is(err, ErrNotEnoughResponses) || errors.Is(err, ErrVerificationFailed) {
		return nil, nil, &CheatingServersError{Servers: named, Err: err}
	}
	if err != nil {
		return nil, nil, err
	}
	keySet, err := newBLSKeySet(p, commitments.threshold, parties)
	if err != nil {
		return nil, nil, err
	}
	return keySet, named, nil
}
