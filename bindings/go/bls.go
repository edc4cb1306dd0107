package oblivex

// #include <oblivex.h>
import "C"

import (
	"bytes"
	"runtime"
)

// BLSSignatureLen is the size of a BLS signature (a compressed G1 point,
// min_sig).
const BLSSignatureLen = C.OBLIVEX_BLS_SIGNATURE_LEN

// BLSPublicKeyLen is the size of a BLS public key (a compressed G2 point).
const BLSPublicKeyLen = C.OBLIVEX_BLS_PUBLIC_KEY_LEN

// blsKeySetHeaderLen is the key set encoding's header: t and m, 2 bytes
// big-endian each.
const blsKeySetHeaderLen = 4

// BLSPublicKey is a validated BLS public key (a G2 point): the key every
// signature of a threshold BLS key set verifies under. Immutable; safe for
// concurrent use.
type BLSPublicKey struct {
	encoded []byte
}

// ParseBLSPublicKey decodes and validates a BLS public key
// (BLSPublicKeyLen bytes): ErrBadLength or ErrInvalidElement otherwise.
func ParseBLSPublicKey(b []byte) (*BLSPublicKey, error) {
	if err := check(C.oblivex_bls_check_public_key(in(b), size(len(b)))); err != nil {
		return nil, err
	}
	return &BLSPublicKey{encoded: append([]byte(nil), b...)}, nil
}

// Bytes is the key's encoding (a copy).
func (k *BLSPublicKey) Bytes() []byte { return append([]byte(nil), k.encoded...) }

// Equal reports whether k and other are the same key.
func (k *BLSPublicKey) Equal(other *BLSPublicKey) bool {
	if k == nil || other == nil {
		return k == other
	}
	return bytes.Equal(k.encoded, other.encoded)
}

// Verify is standard BLS verification
// (BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_, blst min_sig, with the
// signature's subgroup check): nil if signature is valid for message
// under the key, ErrVerificationFailed if not (including a malformed
// signature).
func (k *BLSPublicKey) Verify(message, signature []byte) error {
	return check(C.oblivex_bls_verify(in(k.encoded), size(len(k.encoded)), opt(message), size(len(message)),
		in(signature), size(len(signature))))
}

// BLSKeySet is what a threshold BLS deployment publishes: the G2 public
// key, every signer's G2 key and the G1 commitments, checked against each
// other by pairings when it was made. Signers hold KeyShares of suite
// SuiteBLS12381G1. Immutable; safe for concurrent use. Close releases it.
type BLSKeySet struct {
	threshold, parties int
	publicKey          *BLSPublicKey
	res                resource[*C.struct_oblivex_bls_key_set]
}

// newBLSKeySet wraps a new handle of a t-of-m key set (freeing it if its
// public key cannot be read).
func newBLSKeySet(p *C.struct_oblivex_bls_key_set, threshold, parties int) (*BLSKeySet, error) {
	out := newOut(BLSPublicKeyLen)
	if err := check(C.oblivex_bls_key_set_public_key(p, out.ptr(), out.capacity(), &out.written)); err != nil {
		C.oblivex_bls_key_set_free(p)
		return nil, err
	}
	k := &BLSKeySet{threshold: threshold, parties: parties, publicKey: &BLSPublicKey{encoded: out.bytes()}}
	k.res.init(p, func(p *C.struct_oblivex_bls_key_set) { C.oblivex_bls_key_set_free(p) })
	runtime.SetFinalizer(k, (*BLSKeySet).Close)
	return k, nil
}

// DealBLS is a dealer's t-of-m threshold BLS key (1 <= t <= m <=
// MaxParties): secret is the signing key to share (32 bytes big-endian)
// or nil for a fresh random one. It returns the signers' shares (parties
// 1..m, in order, suite SuiteBLS12381G1) and the key set to publish.
// ErrInvalidThreshold, ErrInvalidScalar (the secret).
func DealBLS(secret []byte, threshold, parties int) ([]*KeyShare, *BLSKeySet, error) {
	d, err := newDealing(secret, threshold, parties)
	if err != nil {
		return nil, nil, err
	}
	defer d.free()
	var p *C.struct_oblivex_bls_key_set
	if err := check(C.oblivex_bls_deal(d.secret, size(len(secret)), size(threshold), size(parties), &d.shares[0], &p)); err != nil {
		return nil, nil, err
	}
	shares := d.keyShares(SuiteBLS12381G1)
	keySet, err := newBLSKeySet(p, threshold, parties)
	if err != nil {
		for _, s := range shares {
			s.Close()
		}
		return nil, nil, err
	}
	return shares, keySet, nil
}

// ParseBLSKeySet decodes a key set (BLSKeySet.Bytes), validating every
// point and checking the pairings that tie them: ErrBadLength,
// ErrInvalidThreshold, ErrInvalidElement, or ErrVerificationFailed for
// keys inconsistent with the commitments.
func ParseBLSKeySet(b []byte) (*BLSKeySet, error) {
	var p *C.struct_oblivex_bls_key_set
	if err := check(C.oblivex_bls_key_set_from_bytes(in(b), size(len(b)), &p)); err != nil {
		return nil, err
	}
	// A valid encoding starts with its header.
	t := int(b[0])<<8 | int(b[1])
	m := int(b[2])<<8 | int(b[3])
	return newBLSKeySet(p, t, m)
}

// Close releases the key set. Idempotent; always nil.
func (k *BLSKeySet) Close() error { return k.res.close() }

// Threshold is t: how many signers must answer.
func (k *BLSKeySet) Threshold() int { return k.threshold }

// Parties is m, the number of signers.
func (k *BLSKeySet) Parties() int { return k.parties }

// PublicKey is the key every signature verifies under.
func (k *BLSKeySet) PublicKey() *BLSPublicKey { return k.publicKey }

// Bytes is the key set's encoding, to publish (t and m as 2 bytes
// big-endian each, the public key, the m signers' keys, the t
// commitments).
func (k *BLSKeySet) Bytes() ([]byte, error) {
	out := newOut(blsKeySetHeaderLen + (k.parties+1)*BLSPublicKeyLen + k.threshold*BLSSignatureLen)
	err := k.res.use(func(p *C.struct_oblivex_bls_key_set) error {
		return check(C.oblivex_bls_key_set_to_bytes(p, out.ptr(), out.capacity(), &out.written))
	})
	if err != nil {
		return nil, err
	}
	return out.bytes(), nil
}

// BLSClient is the client of threshold blind BLS signing: the key set, an
// optional quorum and κ. Signers cannot see the messages; every answer is
// checked (in G1, no pairing) and cheaters are named; the signatures are
// standard BLS. Immutable; safe for concurrent use.
type BLSClient struct {
	keySet *BLSKeySet
	quorum []uint16
	kappa  uint32
}

// NewBLSClient makes a signing client for the signers of keySet (which the
// client uses but does not own: keep it open while it blinds). quorum
// and kappa as in NewThresholdOPRFClient.
func NewBLSClient(keySet *BLSKeySet, quorum []uint16, kappa uint32) (*BLSClient, error) {
	if keySet == nil {
		return nil, ErrNullPointer
	}
	if err := checkQuorum(quorum, keySet.threshold); err != nil {
		return nil, err
	}
	if err := checkKappa(kappa); err != nil {
		return nil, err
	}
	return &BLSClient{keySet: keySet, quorum: append([]uint16(nil), quorum...), kappa: kappa}, nil
}

// KeySet is the key set the client checks against.
func (c *BLSClient) KeySet() *BLSKeySet { return c.keySet }

// Quorum is the client's quorum (nil for none; a copy).
func (c *BLSClient) Quorum() []uint16 { return append([]uint16(nil), c.quorum...) }

// Kappa is the client's κ (0: the default, 64).
func (c *BLSClient) Kappa() uint32 { return c.kappa }

// Blind hashes the messages (each at most MaxInputLen bytes) to G1,
// blinds them, hides the balancer among them and returns the batch,
// whose Request every signer signs (count+1 G1 encodings) with
// KeyShare.Evaluate. ErrEmptyInput for no message, ErrInvalidInput if a
// message hashes to the identity, ErrClosed if the key set was closed.
func (c *BLSClient) Blind(messages [][]byte) (*BLSBatch, error) {
	if c.keySet == nil {
		return nil, ErrNullPointer // a zero BLSClient
	}
	arrays := newCArrays(messages)
	defer arrays.free()
	request := newOut((len(messages) + 1) * BLSSignatureLen)
	var p *C.struct_oblivex_bls_batch
	err := c.keySet.res.use(func(kp *C.struct_oblivex_bls_key_set) error {
		return check(C.oblivex_bls_batch_blind(kp, arrays.ptrs, arrays.lens, size(len(messages)), ids(c.quorum), size(len(c.quorum)),
			C.uint32_t(c.kappa), request.ptr(), request.capacity(), &request.written, &p))
	})
	if err != nil {
		return nil, err
	}
	b := &BLSBatch{count: len(messages), quorum: c.quorum, request: request.bytes()}
	b.res.init(p, func(p *C.struct_oblivex_bls_batch) { C.oblivex_bls_batch_free(p) })
	runtime.SetFinalizer(b, (*BLSBatch).Close)
	return b, nil
}

// BLSBatch is one blinded batch of a BLSClient: its request and its
// secrets, kept until Finalize. Single use; Close wipes it.
type BLSBatch struct {
	count   int
	quorum  []uint16
	request []byte
	res     resource[*C.struct_oblivex_bls_batch]
}

// Request is what to send to every signer (the batch's own slice: do not
// modify it).
func (b *BLSBatch) Request() []byte { return b.request }

// Close wipes and releases the batch. Idempotent; always nil.
func (b *BLSBatch) Close() error { return b.res.close() }

// Finalize checks every signer's response, combines t correct ones,
// unblinds, and returns the signatures (BLSSignatureLen bytes each,
// standard min_sig, in message order: BLSPublicKey.Verify accepts them)
// and the signers caught cheating. Blame, failures and spending as
// ThresholdOPRFBatch.Finalize.
func (b *BLSBatch) Finalize(responses []Response) ([][]byte, []uint16, error) {
	if err := checkResponses(responses, b.quorum); err != nil {
		return nil, nil, err
	}
	var signatures [][]byte
	var cheaters []uint16
	err := b.res.finish(func(p *C.struct_oblivex_bls_batch) error {
		var err error
		signatures, cheaters, err = finalizeThreshold(responses, BLSSignatureLen, b.count,
			func(partyIDs *C.uint16_t, rs **C.uint8_t, lens *C.size_t, n C.size_t, out *C.uint8_t, outCap C.size_t, outW *C.size_t,
				ch *C.uint16_t, chCap C.size_t, chW *C.size_t) C.oblivex_status {
				return C.oblivex_bls_batch_finalize(p, partyIDs, rs, lens, n, out, outCap, outW, ch, chCap, chW)
			})
		return err
	})
	return signatures, cheaters, err
}
