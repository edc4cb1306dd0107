package oblivex

// #include <stdlib.h>
// #include <oblivex.h>
import "C"

import (
	"errors"
	"runtime"
	"unsafe"
)

// KeyShare is one server's share of a t-of-m key (its party id and secret
// scalar). The whole server side of every threshold protocol (threshold
// OPRF, blind BLS signing, ElGamal decryption) is KeyShare.Evaluate.
// Immutable; safe for concurrent use. Close wipes it.
type KeyShare struct {
	suite Suite
	id    uint16
	res   resource[*C.struct_oblivex_key_share]
}

func newKeyShare(suite Suite, p *C.struct_oblivex_key_share) *KeyShare {
	k := &KeyShare{suite: suite, id: uint16(C.oblivex_key_share_id(p))}
	k.res.init(p, func(p *C.struct_oblivex_key_share) { C.oblivex_key_share_free(p) })
	runtime.SetFinalizer(k, (*KeyShare).Close)
	return k
}

// ParseKeyShare decodes a key share of suite (the 2-byte big-endian party
// id, then the scalar): ErrUnknownSuite, ErrBadLength, ErrInvalidPartyID
// (0 or above MaxParties), ErrInvalidScalar. Check it against the
// sharing's commitments (Commitments.VerifyShare) when it is received.
func ParseKeyShare(suite Suite, b []byte) (*KeyShare, error) {
	var p *C.struct_oblivex_key_share
	if err := check(C.oblivex_key_share_from_bytes(C.oblivex_suite(suite), in(b), size(len(b)), &p)); err != nil {
		return nil, err
	}
	return newKeyShare(suite, p), nil
}

// Close wipes and releases the share. Idempotent; always nil.
func (k *KeyShare) Close() error { return k.res.close() }

// Suite is the share's suite.
func (k *KeyShare) Suite() Suite { return k.suite }

// ID is the share's party id (1..MaxParties).
func (k *KeyShare) ID() uint16 { return k.id }

// Bytes is the share's encoding, for storing it: secret, wipe it after
// use.
func (k *KeyShare) Bytes() ([]byte, error) {
	out := newOut(int(C.oblivex_key_share_encoded_len(C.oblivex_suite(k.suite))))
	err := k.res.use(func(p *C.struct_oblivex_key_share) error {
		return check(C.oblivex_key_share_to_bytes(p, out.ptr(), out.capacity(), &out.written))
	})
	if err != nil {
		return nil, err
	}
	return out.bytes(), nil
}

// Evaluate is the server's answer to a threshold request (OPRF evaluation,
// blind signing, decryption): every element of request raised to the
// share, times the server's Lagrange coefficient when the client names a
// quorum (the client's quorum, which must include this server; nil for
// none). The response is as long as the request.
//
// A server cannot tell the balancer from a real input, so every element is
// an evaluation, a signature or a decryption the client can use: issuance
// and rate limits must count the elements of the request.
//
// ErrBadLength for a request that is not a whole, non-zero number of
// elements, ErrInvalidElement for an element that does not decode,
// ErrInvalidPartyID for a quorum without this server, or with a zero or
// repeated id.
func (k *KeyShare) Evaluate(quorum []uint16, request []byte) ([]byte, error) {
	out := newOut(len(request))
	err := k.res.use(func(p *C.struct_oblivex_key_share) error {
		return check(C.oblivex_threshold_server_evaluate(p, ids(quorum), size(len(quorum)), in(request), size(len(request)),
			out.ptr(), out.capacity(), &out.written))
	})
	if err != nil {
		return nil, err
	}
	return out.bytes(), nil
}

// Commitments are the public Feldman commitments of a t-of-m sharing (t
// elements; the first is the shared key's public key). Threshold clients
// are made with them and check every server's answer against them.
// Immutable; safe for concurrent use. Close releases them.
type Commitments struct {
	suite     Suite
	threshold int
	publicKey *PublicKey
	res       resource[*C.struct_oblivex_commitments]
}

// newCommitments wraps a new handle (freeing it if its public key cannot
// be read).
func newCommitments(suite Suite, p *C.struct_oblivex_commitments) (*Commitments, error) {
	out := newOut(suite.ElementLen())
	if err := check(C.oblivex_commitments_public_key(p, out.ptr(), out.capacity(), &out.written)); err != nil {
		C.oblivex_commitments_free(p)
		return nil, err
	}
	c := &Commitments{
		suite:     suite,
		threshold: int(C.oblivex_commitments_threshold(p)),
		publicKey: &PublicKey{suite: suite, encoded: out.bytes()},
	}
	c.res.init(p, func(p *C.struct_oblivex_commitments) { C.oblivex_commitments_free(p) })
	runtime.SetFinalizer(c, (*Commitments).Close)
	return c, nil
}

// ParseCommitments decodes a commitment set of suite (t element
// encodings, concatenated) with full validation: ErrUnknownSuite,
// ErrBadLength, ErrInvalidThreshold (more than MaxParties),
// ErrInvalidElement.
func ParseCommitments(suite Suite, b []byte) (*Commitments, error) {
	var p *C.struct_oblivex_commitments
	if err := check(C.oblivex_commitments_from_bytes(C.oblivex_suite(suite), in(b), size(len(b)), &p)); err != nil {
		return nil, err
	}
	return newCommitments(suite, p)
}

// Close releases the commitments. Idempotent; always nil.
func (c *Commitments) Close() error { return c.res.close() }

// Suite is the commitments' suite.
func (c *Commitments) Suite() Suite { return c.suite }

// Threshold is t: how many servers must answer.
func (c *Commitments) Threshold() int { return c.threshold }

// PublicKey is the shared key's public key: the key ElGamal encrypts to,
// and the public key of the single-key OPRF with the shared key.
func (c *Commitments) PublicKey() *PublicKey { return c.publicKey }

// Bytes is the commitments' encoding (t element encodings), to publish.
func (c *Commitments) Bytes() ([]byte, error) {
	out := newOut(c.threshold * c.suite.ElementLen())
	err := c.res.use(func(p *C.struct_oblivex_commitments) error {
		return check(C.oblivex_commitments_to_bytes(p, out.ptr(), out.capacity(), &out.written))
	})
	if err != nil {
		return nil, err
	}
	return out.bytes(), nil
}

// VerifyShare checks a share against the commitments (k_id·B = C_id): nil
// if it is consistent, ErrVerificationFailed if not, ErrSuiteMismatch for
// a share of another suite. Run it when a share is received.
func (c *Commitments) VerifyShare(share *KeyShare) error {
	if share == nil {
		return ErrNullPointer
	}
	return c.res.use(func(cp *C.struct_oblivex_commitments) error {
		return share.res.use(func(kp *C.struct_oblivex_key_share) error {
			return check(C.oblivex_commitments_verify_share(cp, kp))
		})
	})
}

// dealing holds the C array a dealer writes the shares to.
type dealing struct {
	shares []*C.struct_oblivex_key_share
	secret *C.uint8_t
}

// newDealing checks a dealer's arguments shared by Deal and DealBLS: a
// usable threshold (ErrInvalidThreshold) and a secret that is nil (fresh)
// or not empty (ErrInvalidScalar: the C API would take an empty one for
// "fresh"). free releases the array.
func newDealing(secret []byte, threshold, parties int) (*dealing, error) {
	if parties <= 0 || parties > MaxParties || threshold <= 0 || threshold > parties {
		return nil, ErrInvalidThreshold
	}
	if secret != nil && len(secret) == 0 {
		return nil, ErrInvalidScalar
	}
	p := (**C.struct_oblivex_key_share)(C.calloc(C.size_t(parties), C.size_t(unsafe.Sizeof(uintptr(0)))))
	return &dealing{shares: unsafe.Slice(p, parties), secret: opt(secret)}, nil
}

func (d *dealing) free() { C.free(unsafe.Pointer(&d.shares[0])) }

// keyShares wraps the dealt handles.
func (d *dealing) keyShares(suite Suite) []*KeyShare {
	out := make([]*KeyShare, len(d.shares))
	for i, p := range d.shares {
		out[i] = newKeyShare(suite, p)
	}
	return out
}

// Deal is a dealer's t-of-m sharing (1 <= t <= m <= MaxParties) of a key
// of suite: secret is the key to share (a scalar encoding) or nil for a
// fresh random one. It returns the shares of parties 1..m, in order (give
// each server its share over a private channel), and the commitments to
// publish. ErrUnknownSuite, ErrInvalidThreshold, ErrInvalidScalar (the
// secret).
func Deal(suite Suite, secret []byte, threshold, parties int) ([]*KeyShare, *Commitments, error) {
	if err := suite.known(); err != nil {
		return nil, nil, err
	}
	d, err := newDealing(secret, threshold, parties)
	if err != nil {
		return nil, nil, err
	}
	defer d.free()
	var p *C.struct_oblivex_commitments
	if err := check(C.oblivex_threshold_deal(C.oblivex_suite(suite), d.secret, size(len(secret)), size(threshold), size(parties),
		&d.shares[0], &p)); err != nil {
		return nil, nil, err
	}
	shares := d.keyShares(suite)
	commitments, err := newCommitments(suite, p)
	if err != nil {
		for _, s := range shares {
			s.Close()
		}
		return nil, nil, err
	}
	return shares, commitments, nil
}

// Response is one server's answer to a threshold request: its party id
// and the bytes KeyShare.Evaluate returned.
type Response struct {
	// Party is the answering server's party id.
	Party uint16
	// Elements is its response (as long as the request).
	Elements []byte
}

// checkResponses refuses, before the batch is touched, the party ids the
// library rejects only once it combines the answers (which spends the
// batch): zero, above MaxParties, repeated, or outside the named quorum.
func checkResponses(rs []Response, quorum []uint16) error {
	seen := make(map[uint16]bool, len(rs))
	for _, r := range rs {
		if r.Party == 0 || int(r.Party) > MaxParties || seen[r.Party] {
			return ErrInvalidPartyID
		}
		seen[r.Party] = true
	}
	if len(quorum) > 0 {
		named := make(map[uint16]bool, len(quorum))
		for _, id := range quorum {
			named[id] = true
		}
		for _, r := range rs {
			if !named[r.Party] {
				return ErrInvalidPartyID
			}
		}
	}
	return nil
}

// splitResponses is the party ids and the bytes of rs, as the C API takes
// them.
func splitResponses(rs []Response) ([]uint16, [][]byte) {
	parties := make([]uint16, len(rs))
	items := make([][]byte, len(rs))
	for i, r := range rs {
		parties[i], items[i] = r.Party, r.Elements
	}
	return parties, items
}

// thresholdFinalize is a threshold client's C last step, its batch bound.
type thresholdFinalize func(partyIDs *C.uint16_t, responses **C.uint8_t, lens *C.size_t, count C.size_t,
	outputs *C.uint8_t, outputsCapacity C.size_t, outputsWritten *C.size_t,
	cheaters *C.uint16_t, cheatersCapacity C.size_t, cheatersWritten *C.size_t) C.oblivex_status

// finalizeThreshold runs a threshold client's last step: on success the
// outputs (count of outputLen bytes) and the servers caught cheating; on a
// failure that carries the cheater list a *CheatingServersError; other
// errors as they are.
func finalizeThreshold(rs []Response, outputLen, count int, f thresholdFinalize) ([][]byte, []uint16, error) {
	parties, items := splitResponses(rs)
	arrays := newCArrays(items)
	defer arrays.free()
	outputs := newOut(outputLen * count)
	cheaters := make([]uint16, len(rs)+1)
	var cheatersWritten C.size_t
	err := check(f(ids(parties), arrays.ptrs, arrays.lens, size(len(rs)), outputs.ptr(), outputs.capacity(), &outputs.written,
		(*C.uint16_t)(unsafe.Pointer(&cheaters[0])), size(len(cheaters)), &cheatersWritten))
	named := append([]uint16{}, cheaters[:cheatersWritten]...)
	if errors.Is(err, ErrVerificationFailed) || errors.Is(err, ErrNotEnoughResponses) || errors.Is(err, ErrInvalidInput) {
		return nil, nil, &CheatingServersError{Servers: named, Err: err}
	}
	if err != nil {
		return nil, nil, err
	}
	return split(outputs.bytes(), count), named, nil
}

// ThresholdOPRFClient is the client of an OPRF whose key is shared by m
// servers, t of which must answer: the commitments of the sharing, an
// optional quorum and κ. Every answer is checked against its server's
// commitment and cheaters are named. The outputs equal the single-key
// OPRF's under the shared key. Immutable; safe for concurrent use.
type ThresholdOPRFClient struct {
	commitments *Commitments
	quorum      []uint16
	kappa       uint32
}

// NewThresholdOPRFClient makes a threshold OPRF client for the servers
// sharing the key of commitments (which the client uses but does not own:
// keep them open while it blinds). quorum names exactly t servers that
// will answer (nil for none: any t correct answers combine), so that they
// pre-multiply by their Lagrange coefficients (give them the same quorum);
// ErrInvalidPartyID otherwise. kappa as in NewCheckedClient.
func NewThresholdOPRFClient(commitments *Commitments, quorum []uint16, kappa uint32) (*ThresholdOPRFClient, error) {
	if commitments == nil {
		return nil, ErrNullPointer
	}
	if err := checkQuorum(quorum, commitments.threshold); err != nil {
		return nil, err
	}
	if err := checkKappa(kappa); err != nil {
		return nil, err
	}
	return &ThresholdOPRFClient{commitments: commitments, quorum: append([]uint16(nil), quorum...), kappa: kappa}, nil
}

// Commitments are the sharing's commitments the client checks against.
func (c *ThresholdOPRFClient) Commitments() *Commitments { return c.commitments }

// Quorum is the client's quorum (nil for none; a copy).
func (c *ThresholdOPRFClient) Quorum() []uint16 { return append([]uint16(nil), c.quorum...) }

// Kappa is the client's κ (0: the default, 64).
func (c *ThresholdOPRFClient) Kappa() uint32 { return c.kappa }

// Blind hashes and blinds the inputs (each at most MaxInputLen bytes),
// hides the balancer among them, and returns the batch, whose Request
// every server evaluates (count+1 element encodings). ErrEmptyInput for
// no input, ErrInvalidInput if an input hashes to the identity, ErrClosed
// if the commitments were closed.
func (c *ThresholdOPRFClient) Blind(inputs [][]byte) (*ThresholdOPRFBatch, error) {
	if c.commitments == nil {
		return nil, ErrNullPointer // a zero ThresholdOPRFClient
	}
	suite := c.commitments.suite
	arrays := newCArrays(inputs)
	defer arrays.free()
	request := newOut((len(inputs) + 1) * suite.ElementLen())
	var p *C.struct_oblivex_threshold_oprf_batch
	err := c.commitments.res.use(func(cp *C.struct_oblivex_commitments) error {
		return check(C.oblivex_threshold_oprf_batch_blind(cp, arrays.ptrs, arrays.lens, size(len(inputs)), ids(c.quorum), size(len(c.quorum)),
			C.uint32_t(c.kappa), request.ptr(), request.capacity(), &request.written, &p))
	})
	if err != nil {
		return nil, err
	}
	b := &ThresholdOPRFBatch{suite: suite, count: len(inputs), quorum: c.quorum, request: request.bytes()}
	b.res.init(p, func(p *C.struct_oblivex_threshold_oprf_batch) { C.oblivex_threshold_oprf_batch_free(p) })
	runtime.SetFinalizer(b, (*ThresholdOPRFBatch).Close)
	return b, nil
}

// ThresholdOPRFBatch is one blinded batch of a ThresholdOPRFClient: its
// request, and the inputs, blinds and check secrets, kept until Finalize.
// Single use; Close wipes it.
type ThresholdOPRFBatch struct {
	suite   Suite
	count   int
	quorum  []uint16
	request []byte
	res     resource[*C.struct_oblivex_threshold_oprf_batch]
}

// Request is what to send to every server (the batch's own slice: do not
// modify it).
func (b *ThresholdOPRFBatch) Request() []byte { return b.request }

// Close wipes and releases the batch. Idempotent; always nil.
func (b *ThresholdOPRFBatch) Close() error { return b.res.close() }

// Finalize checks every server's response against its commitment,
// combines t correct ones and returns the PRF output of every input
// (Suite.OutputLen bytes each, in order) and the servers caught cheating
// (an answer that fails its check or does not decode).
//
// Blame: every server whose answer is checked on its own and fails is
// named; when the combined check of t answers passes, their outputs are
// right, and servers whose wrong answers cancel out in the combination
// (colluders) change nothing and may go unnamed.
//
// Failures after the answers were checked come as a *CheatingServersError
// naming the cheaters: ErrNotEnoughResponses (fewer than t correct
// answers) or ErrVerificationFailed (a cheater in a named quorum: ask
// another quorum with a fresh batch). Those spend the batch, as success
// does (later calls give ErrBatchUsed); ErrInvalidPartyID (an id zero or
// repeated, or a server outside the named quorum) leaves it usable.
func (b *ThresholdOPRFBatch) Finalize(responses []Response) ([][]byte, []uint16, error) {
	if err := checkResponses(responses, b.quorum); err != nil {
		return nil, nil, err
	}
	var outputs [][]byte
	var cheaters []uint16
	err := b.res.finish(func(p *C.struct_oblivex_threshold_oprf_batch) error {
		var err error
		outputs, cheaters, err = finalizeThreshold(responses, b.suite.OutputLen(), b.count,
			func(partyIDs *C.uint16_t, rs **C.uint8_t, lens *C.size_t, n C.size_t, out *C.uint8_t, outCap C.size_t, outW *C.size_t,
				ch *C.uint16_t, chCap C.size_t, chW *C.size_t) C.oblivex_status {
				return C.oblivex_threshold_oprf_batch_finalize(p, partyIDs, rs, lens, n, out, outCap, outW, ch, chCap, chW)
			})
		return err
	})
	return outputs, cheaters, err
}
