package oblivex

// #include <stdlib.h>
// #include <oblivex.h>
import "C"

import (
	"runtime"
	"unsafe"
)

// BLSSignatureLen is the size of a signature (compressed G1, min_sig).
const BLSSignatureLen = 48

// BLSPublicKeyLen is the size of a public key (compressed G2).
const BLSPublicKeyLen = 96

// BLSKeySet is what a threshold BLS deployment publishes: the G2 public
// key, every signer's G2 key and the G1 commitments, checked against each
// other by pairings. Immutable; safe for concurrent use.
type BLSKeySet struct {
	res resource[C.struct_oblivex_bls_key_set]
}

func newBLSKeySet(p *C.struct_oblivex_bls_key_set) *BLSKeySet {
	k := &BLSKeySet{res: resource[C.struct_oblivex_bls_key_set]{ptr: p, free: func(p *C.struct_oblivex_bls_key_set) { C.oblivex_bls_key_set_free(p) }}}
	runtime.SetFinalizer(k, (*BLSKeySet).Close)
	return k
}

// BLSDeal makes a fresh t-of-m threshold BLS key: the signers' shares
// (parties 1..m, suite BLS12381G1SHA256) and the key set to publish.
func BLSDeal(t, m int) ([]*KeyShare, *BLSKeySet, error) {
	if m <= 0 || m > 1024 || t <= 0 || t > m {
		return nil, nil, ErrInvalidThreshold
	}
	shares := unsafe.Slice((**C.struct_oblivex_key_share)(C.calloc(C.size_t(m), C.size_t(unsafe.Sizeof(uintptr(0))))), m)
	defer C.free(unsafe.Pointer(&shares[0]))
	var keySet *C.struct_oblivex_bls_key_set
	if err := check(C.oblivex_bls_deal(size(t), size(m), &shares[0], &keySet)); err != nil {
		return nil, nil, err
	}
	out := make([]*KeyShare, m)
	for i := range out {
		out[i] = newKeyShare(BLS12381G1SHA256, shares[i])
	}
	return out, newBLSKeySet(keySet), nil
}

// ParseBLSKeySet decodes a key set, validating every point and checking
// the pairings (ErrVerificationFailed if the keys do not match the
// commitments).
func ParseBLSKeySet(b []byte) (*BLSKeySet, error) {
	var p *C.struct_oblivex_bls_key_set
	if err := check(C.oblivex_bls_key_set_from_bytes(ptr(b), size(len(b)), &p)); err != nil {
		return nil, err
	}
	return newBLSKeySet(p), nil
}

// Close releases the key set. Idempotent.
func (k *BLSKeySet) Close() { k.res.close() }

// Bytes is the key set's encoding.
func (k *BLSKeySet) Bytes() ([]byte, error) {
	out := make([]byte, 4+1025*BLSPublicKeyLen+1024*BLSSignatureLen)
	var written C.size_t
	err := k.res.use(func(p *C.struct_oblivex_bls_key_set) error {
		return check(C.oblivex_bls_key_set_to_bytes(p, ptr(out), size(len(out)), &written))
	})
	runtime.KeepAlive(k)
	if err != nil {
		return nil, err
	}
	return out[:written:written], nil
}

// PublicKey is the G2 key every signature verifies under.
func (k *BLSKeySet) PublicKey() ([]byte, error) {
	out := make([]byte, BLSPublicKeyLen)
	var written C.size_t
	err := k.res.use(func(p *C.struct_oblivex_bls_key_set) error {
		return check(C.oblivex_bls_key_set_public_key(p, ptr(out), size(len(out)), &written))
	})
	runtime.KeepAlive(k)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// BLSBatch is a client's batch of messages being signed blindly: single
// use; Close wipes it.
type BLSBatch struct {
	count int
	res   resource[C.struct_oblivex_bls_client]
}

// Close wipes and releases the batch. Idempotent.
func (b *BLSBatch) Close() { b.res.close() }

// BLSBlind hashes and blinds messages and returns the batch and the one
// request for every signer (quorum and kappa as in ThresholdOPRFBlind).
func BLSBlind(keySet *BLSKeySet, messages [][]byte, quorum []uint16, kappa uint32) (*BLSBatch, []byte, error) {
	arrays := newCArrays(messages)
	defer arrays.free()
	request := make([]byte, (len(messages)+1)*BLSSignatureLen)
	var written C.size_t
	var p *C.struct_oblivex_bls_client
	err := keySet.res.use(func(kp *C.struct_oblivex_bls_key_set) error {
		return check(C.oblivex_bls_client_blind(kp, arrays.ptrs, arrays.lens, size(len(messages)), quorumPtr(quorum), size(len(quorum)),
			C.uint32_t(kappa), ptr(request), size(len(request)), &written, &p))
	})
	runtime.KeepAlive(keySet)
	runtime.KeepAlive(quorum)
	if err != nil {
		return nil, nil, err
	}
	b := &BLSBatch{count: len(messages), res: resource[C.struct_oblivex_bls_client]{ptr: p, free: func(p *C.struct_oblivex_bls_client) { C.oblivex_bls_client_free(p) }}}
	runtime.SetFinalizer(b, (*BLSBatch).Close)
	return b, request[:written], nil
}

// Finish checks every signer (G1 batch check, no pairing), combines t
// correct answers and unblinds: the signatures (standard min_sig, in
// message order) and the signers caught cheating; or a
// *CheatingServersError. It spends the batch.
func (b *BLSBatch) Finish(rs []Response) ([][]byte, []uint16, error) {
	var sigs [][]byte
	var cheaters []uint16
	err := b.res.spend(func(p *C.struct_oblivex_bls_client) error {
		var err error
		sigs, cheaters, err = finishThreshold(rs, BLSSignatureLen, b.count,
			func(ids *C.uint16_t, ptrs **C.uint8_t, lens *C.size_t, n C.size_t, out *C.uint8_t, outCap C.size_t, outW *C.size_t, ch *C.uint16_t, chCap C.size_t, chW *C.size_t) C.enum_oblivex_status {
				return C.oblivex_bls_client_finish(p, ids, ptrs, lens, n, out, outCap, outW, ch, chCap, chW)
			})
		return err
	})
	runtime.KeepAlive(b)
	return sigs, cheaters, err
}

// BLSVerify is standard BLS verification (BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_):
// nil if signature is valid for message under publicKey,
// ErrVerificationFailed if not.
func BLSVerify(publicKey, message, signature []byte) error {
	return check(C.oblivex_bls_verify(ptr(publicKey), size(len(publicKey)), ptr(message), size(len(message)),
		ptr(signature), size(len(signature))))
}
