package oblivex

// #include <stdlib.h>
// #include <oblivex.h>
import "C"

import (
	"runtime"
	"unsafe"
)

// KeyShare is one server's share of a t-of-m key: the whole server side of
// every threshold protocol is KeyShare.Evaluate. Immutable; safe for
// concurrent use. Close wipes it.
type KeyShare struct {
	suite Suite
	res   resource[C.struct_oblivex_key_share]
}

func newKeyShare(suite Suite, p *C.struct_oblivex_key_share) *KeyShare {
	k := &KeyShare{suite: suite, res: resource[C.struct_oblivex_key_share]{ptr: p, free: func(p *C.struct_oblivex_key_share) { C.oblivex_key_share_free(p) }}}
	runtime.SetFinalizer(k, (*KeyShare).Close)
	return k
}

// ParseKeyShare decodes a key share (2-byte big-endian party id, then the
// scalar).
func ParseKeyShare(suite Suite, b []byte) (*KeyShare, error) {
	var p *C.struct_oblivex_key_share
	if err := check(C.oblivex_key_share_from_bytes(C.int(suite), ptr(b), size(len(b)), &p)); err != nil {
		return nil, err
	}
	return newKeyShare(suite, p), nil
}

// Close wipes and releases the share. Idempotent.
func (k *KeyShare) Close() { k.res.close() }

// Suite is the share's suite.
func (k *KeyShare) Suite() Suite { return k.suite }

// ID is the share's party id (0 once closed).
func (k *KeyShare) ID() uint16 {
	var id uint16
	_ = k.res.use(func(p *C.struct_oblivex_key_share) error {
		id = uint16(C.oblivex_key_share_id(p))
		return nil
	})
	runtime.KeepAlive(k)
	return id
}

// Bytes is the share's encoding (secret: wipe it after use).
func (k *KeyShare) Bytes() ([]byte, error) {
	out := make([]byte, C.oblivex_key_share_encoded_len(C.int(k.suite)))
	var written C.size_t
	err := k.res.use(func(p *C.struct_oblivex_key_share) error {
		return check(C.oblivex_key_share_to_bytes(p, ptr(out), size(len(out)), &written))
	})
	runtime.KeepAlive(k)
	if err != nil {
		return nil, err
	}
	return out[:written], nil
}

// Evaluate is a server's answer to a threshold request (OPRF evaluation,
// blind signing, decryption): every element raised to the share, times the
// server's Lagrange coefficient when the client names a quorum (nil for
// none; it must include this server).
func (k *KeyShare) Evaluate(request []byte, quorum []uint16) ([]byte, error) {
	out := make([]byte, len(request))
	var written C.size_t
	err := k.res.use(func(p *C.struct_oblivex_key_share) error {
		return check(C.oblivex_threshold_server_evaluate(p, quorumPtr(quorum), size(len(quorum)), ptr(request), size(len(request)),
			ptr(out), size(len(out)), &written))
	})
	runtime.KeepAlive(k)
	runtime.KeepAlive(quorum)
	if err != nil {
		return nil, err
	}
	return out[:written], nil
}

func quorumPtr(q []uint16) *C.uint16_t {
	if len(q) == 0 {
		return nil
	}
	return (*C.uint16_t)(unsafe.Pointer(&q[0]))
}

// Commitments are the public Feldman commitments of a t-of-m sharing (the
// first is the shared public key). Immutable; safe for concurrent use.
type Commitments struct {
	suite Suite
	res   resource[C.struct_oblivex_commitments]
}

func newCommitments(suite Suite, p *C.struct_oblivex_commitments) *Commitments {
	c := &Commitments{suite: suite, res: resource[C.struct_oblivex_commitments]{ptr: p, free: func(p *C.struct_oblivex_commitments) { C.oblivex_commitments_free(p) }}}
	runtime.SetFinalizer(c, (*Commitments).Close)
	return c
}

// ParseCommitments decodes t concatenated element encodings, validated.
func ParseCommitments(suite Suite, b []byte) (*Commitments, error) {
	var p *C.struct_oblivex_commitments
	if err := check(C.oblivex_commitments_from_bytes(C.int(suite), ptr(b), size(len(b)), &p)); err != nil {
		return nil, err
	}
	return newCommitments(suite, p), nil
}

// Close releases the commitments. Idempotent.
func (c *Commitments) Close() { c.res.close() }

// Suite is the commitments' suite.
func (c *Commitments) Suite() Suite { return c.suite }

// Threshold is t (0 once closed).
func (c *Commitments) Threshold() int {
	t := 0
	_ = c.res.use(func(p *C.struct_oblivex_commitments) error {
		t = int(C.oblivex_commitments_threshold(p))
		return nil
	})
	runtime.KeepAlive(c)
	return t
}

func (c *Commitments) bytes(f func(*C.struct_oblivex_commitments, *C.uint8_t, C.size_t, *C.size_t) C.enum_oblivex_status, capacity int) ([]byte, error) {
	out := make([]byte, capacity)
	var written C.size_t
	err := c.res.use(func(p *C.struct_oblivex_commitments) error {
		return check(f(p, ptr(out), size(len(out)), &written))
	})
	runtime.KeepAlive(c)
	if err != nil {
		return nil, err
	}
	return out[:written], nil
}

// Bytes is the encoding (t element encodings).
func (c *Commitments) Bytes() ([]byte, error) {
	return c.bytes(func(p *C.struct_oblivex_commitments, o *C.uint8_t, n C.size_t, w *C.size_t) C.enum_oblivex_status {
		return C.oblivex_commitments_to_bytes(p, o, n, w)
	}, c.Threshold()*c.suite.ElementLen())
}

// PublicKey is the shared key's public key (an element encoding): the
// ElGamal encryption key, the single-key OPRF's public key.
func (c *Commitments) PublicKey() ([]byte, error) {
	return c.bytes(func(p *C.struct_oblivex_commitments, o *C.uint8_t, n C.size_t, w *C.size_t) C.enum_oblivex_status {
		return C.oblivex_commitments_public_key(p, o, n, w)
	}, c.suite.ElementLen())
}

// VerifyShare checks a share against the commitments: nil if consistent,
// ErrVerificationFailed if not.
func (c *Commitments) VerifyShare(k *KeyShare) error {
	err := c.res.use(func(cp *C.struct_oblivex_commitments) error {
		return k.res.use(func(kp *C.struct_oblivex_key_share) error {
			return check(C.oblivex_commitments_verify_share(cp, kp))
		})
	})
	runtime.KeepAlive(c)
	runtime.KeepAlive(k)
	return err
}

// Deal shares a key of suite t-of-m (1 <= t <= m <= 1024): secret is the
// encoded key to share, or nil for a fresh random one. It returns the
// shares of parties 1..m, in order, and the commitments to publish.
func Deal(suite Suite, secret []byte, t, m int) ([]*KeyShare, *Commitments, error) {
	if m <= 0 || m > 1024 || t <= 0 || t > m {
		return nil, nil, ErrInvalidThreshold
	}
	shares := unsafe.Slice((**C.struct_oblivex_key_share)(C.calloc(C.size_t(m), C.size_t(unsafe.Sizeof(uintptr(0))))), m)
	defer C.free(unsafe.Pointer(&shares[0]))
	var commitments *C.struct_oblivex_commitments
	var secretPtr *C.uint8_t
	if secret != nil {
		secretPtr = ptr(secret)
		if secretPtr == nil {
			return nil, nil, ErrInvalidScalar
		}
	}
	if err := check(C.oblivex_threshold_deal(C.int(suite), secretPtr, size(len(secret)), size(t), size(m), &shares[0], &commitments)); err != nil {
		return nil, nil, err
	}
	out := make([]*KeyShare, m)
	for i := range out {
		out[i] = newKeyShare(suite, shares[i])
	}
	return out, newCommitments(suite, commitments), nil
}

// Response is one server's answer to a threshold request.
type Response struct {
	Party    uint16
	Elements []byte
}

// responses is a batch of responses in C memory.
type responses struct {
	ids    *C.uint16_t
	arrays *cArrays
	n      int
}

func newResponses(rs []Response) *responses {
	r := &responses{n: len(rs)}
	items := make([][]byte, len(rs))
	for i, x := range rs {
		items[i] = x.Elements
	}
	r.arrays = newCArrays(items)
	if len(rs) > 0 {
		r.ids = (*C.uint16_t)(C.calloc(C.size_t(len(rs)), 2))
		ids := unsafe.Slice(r.ids, len(rs))
		for i, x := range rs {
			ids[i] = C.uint16_t(x.Party)
		}
	}
	return r
}

func (r *responses) free() {
	r.arrays.free()
	if r.ids != nil {
		C.free(unsafe.Pointer(r.ids))
	}
}

// finishThreshold runs a threshold client's last step: f writes the outputs
// and the cheaters. On success it returns the outputs and the cheaters; on
// a failure that names cheaters a *CheatingServersError.
func finishThreshold(rs []Response, outputLen, count int,
	f func(ids *C.uint16_t, ptrs **C.uint8_t, lens *C.size_t, n C.size_t, out *C.uint8_t, outCap C.size_t, outW *C.size_t, ch *C.uint16_t, chCap C.size_t, chW *C.size_t) C.enum_oblivex_status,
) ([][]byte, []uint16, error) {
	r := newResponses(rs)
	defer r.free()
	outputs := make([]byte, outputLen*count)
	cheaters := make([]uint16, len(rs)+1)
	var outW, chW C.size_t
	err := check(f(r.ids, r.arrays.ptrs, r.arrays.lens, size(len(rs)), ptr(outputs), size(len(outputs)), &outW,
		(*C.uint16_t)(unsafe.Pointer(&cheaters[0])), size(len(cheaters)), &chW))
	named := append([]uint16(nil), cheaters[:chW]...)
	if err == ErrVerificationFailed || err == ErrNotEnoughResponses {
		return nil, nil, &CheatingServersError{Servers: named, Err: err}
	}
	if err != nil {
		return nil, nil, err
	}
	return split(outputs[:outW], count), named, nil
}

// ThresholdOPRFBatch is a threshold OPRF client's batch: single use; Close
// wipes it.
type ThresholdOPRFBatch struct {
	suite Suite
	count int
	res   resource[C.struct_oblivex_threshold_oprf_client]
}

// Close wipes and releases the batch. Idempotent.
func (b *ThresholdOPRFBatch) Close() { b.res.close() }

// ThresholdOPRFBlind hashes and blinds inputs for the servers sharing the
// key of commitments, and returns the batch and the one request to send to
// each of them. quorum (t ids, or nil) names the servers that will answer
// so that they pre-multiply by their Lagrange coefficients; kappa as in
// CheckedClient (0: 64).
func ThresholdOPRFBlind(commitments *Commitments, inputs [][]byte, quorum []uint16, kappa uint32) (*ThresholdOPRFBatch, []byte, error) {
	arrays := newCArrays(inputs)
	defer arrays.free()
	request := make([]byte, (len(inputs)+1)*commitments.suite.ElementLen())
	var written C.size_t
	var p *C.struct_oblivex_threshold_oprf_client
	err := commitments.res.use(func(cp *C.struct_oblivex_commitments) error {
		return check(C.oblivex_threshold_oprf_client_blind(cp, arrays.ptrs, arrays.lens, size(len(inputs)), quorumPtr(quorum), size(len(quorum)),
			C.uint32_t(kappa), ptr(request), size(len(request)), &written, &p))
	})
	runtime.KeepAlive(commitments)
	runtime.KeepAlive(quorum)
	if err != nil {
		return nil, nil, err
	}
	b := &ThresholdOPRFBatch{suite: commitments.suite, count: len(inputs), res: resource[C.struct_oblivex_threshold_oprf_client]{ptr: p, free: func(p *C.struct_oblivex_threshold_oprf_client) { C.oblivex_threshold_oprf_client_free(p) }}}
	runtime.SetFinalizer(b, (*ThresholdOPRFBatch).Close)
	return b, request[:written], nil
}

// Finalize checks every response against its server's commitment, combines
// t correct ones and returns the PRF outputs (equal to the single-key
// OPRF's) and the servers caught cheating; with fewer than t correct
// answers a *CheatingServersError (errors.Is ErrNotEnoughResponses). It
// spends the batch.
func (b *ThresholdOPRFBatch) Finalize(rs []Response) ([][]byte, []uint16, error) {
	var outputs [][]byte
	var cheaters []uint16
	err := b.res.spend(func(p *C.struct_oblivex_threshold_oprf_client) error {
		var err error
		outputs, cheaters, err = finishThreshold(rs, b.suite.OutputLen(), b.count,
			func(ids *C.uint16_t, ptrs **C.uint8_t, lens *C.size_t, n C.size_t, out *C.uint8_t, outCap C.size_t, outW *C.size_t, ch *C.uint16_t, chCap C.size_t, chW *C.size_t) C.enum_oblivex_status {
				return C.oblivex_threshold_oprf_client_finalize(p, ids, ptrs, lens, n, out, outCap, outW, ch, chCap, chW)
			})
		return err
	})
	runtime.KeepAlive(b)
	return outputs, cheaters, err
}
