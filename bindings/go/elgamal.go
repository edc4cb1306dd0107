package oblivex

// #include <oblivex.h>
import "C"

import "runtime"

// ElGamalEncrypt encrypts message (an element encoding of the key's suite,
// not the identity) under publicKey (e.g. Commitments.PublicKey) and
// returns the ciphertext c1 || c2 (two element encodings).
// ErrInvalidElement for a message that does not decode or is the identity.
// Not CCA-secure: a decryption server raises any element to its share.
func ElGamalEncrypt(publicKey *PublicKey, message []byte) ([]byte, error) {
	if publicKey == nil {
		return nil, ErrNullPointer
	}
	out := newOut(2 * publicKey.suite.ElementLen())
	if err := check(C.oblivex_elgamal_encrypt(C.oblivex_suite(publicKey.suite), in(publicKey.encoded), size(len(publicKey.encoded)),
		in(message), size(len(message)), out.ptr(), out.capacity(), &out.written)); err != nil {
		return nil, err
	}
	return out.bytes(), nil
}

// ElGamalEncapsulate is the KEM form: a fresh encapsulation (an element
// encoding) under publicKey and its shared secret (Suite.OutputLen bytes;
// wipe it after use).
func ElGamalEncapsulate(publicKey *PublicKey) (encapsulation, secret []byte, err error) {
	if publicKey == nil {
		return nil, nil, ErrNullPointer
	}
	suite := publicKey.suite
	enc := newOut(suite.ElementLen())
	sec := newOut(suite.OutputLen())
	if err := check(C.oblivex_elgamal_encapsulate(C.oblivex_suite(suite), in(publicKey.encoded), size(len(publicKey.encoded)),
		enc.ptr(), enc.capacity(), &enc.written, sec.ptr(), sec.capacity(), &sec.written)); err != nil {
		return nil, nil, err
	}
	return enc.bytes(), sec.bytes(), nil
}

// ElGamalClient is the client of threshold ElGamal decryption: the
// commitments of the servers' sharing, what to recover (ElGamalTarget),
// whether to blind, an optional quorum and κ. Every answer is checked and
// cheaters are named. Immutable; safe for concurrent use.
type ElGamalClient struct {
	commitments *Commitments
	target      ElGamalTarget
	blinded     bool
	quorum      []uint16
	kappa       uint32
}

// NewElGamalClient makes a decryption client for the servers sharing the
// key of commitments (which the client uses but does not own: keep them
// open while it blinds). target is ElGamalPlaintexts (items are
// ciphertexts) or ElGamalKEMSecrets (items are encapsulations);
// ErrUnknownTarget otherwise. With blinded the servers see r_i·c1_i for
// fresh secret r_i and cannot link the request to the ciphertexts. quorum
// and kappa as in NewThresholdOPRFClient.
func NewElGamalClient(commitments *Commitments, target ElGamalTarget, blinded bool, quorum []uint16, kappa uint32) (*ElGamalClient, error) {
	if commitments == nil {
		return nil, ErrNullPointer
	}
	if target != ElGamalPlaintexts && target != ElGamalKEMSecrets {
		return nil, ErrUnknownTarget
	}
	if err := checkQuorum(quorum, commitments.threshold); err != nil {
		return nil, err
	}
	if err := checkKappa(kappa); err != nil {
		return nil, err
	}
	return &ElGamalClient{commitments: commitments, target: target, blinded: blinded,
		quorum: append([]uint16(nil), quorum...), kappa: kappa}, nil
}

// Commitments are the sharing's commitments the client checks against.
func (c *ElGamalClient) Commitments() *Commitments { return c.commitments }

// Target is what the client recovers.
func (c *ElGamalClient) Target() ElGamalTarget { return c.target }

// Blinded reports whether the client blinds its requests.
func (c *ElGamalClient) Blinded() bool { return c.blinded }

// Quorum is the client's quorum (nil for none; a copy).
func (c *ElGamalClient) Quorum() []uint16 { return append([]uint16(nil), c.quorum...) }

// Kappa is the client's κ (0: the default, 64).
func (c *ElGamalClient) Kappa() uint32 { return c.kappa }

// Blind prepares the decryption of items (ciphertexts for
// ElGamalPlaintexts, encapsulations for ElGamalKEMSecrets) and returns the
// batch, whose Request every server answers (count+1 element encodings)
// with KeyShare.Evaluate. ErrEmptyInput for no item, ErrBadLength for
// items not all of the target's width, ErrInvalidElement for an item
// that does not decode, ErrClosed if the commitments were closed.
func (c *ElGamalClient) Blind(items [][]byte) (*ElGamalBatch, error) {
	if c.commitments == nil {
		return nil, ErrNullPointer // a zero ElGamalClient
	}
	flat, _, err := flatten(items)
	if err != nil {
		return nil, err
	}
	suite := c.commitments.suite
	request := newOut((len(items) + 1) * suite.ElementLen())
	var p *C.struct_oblivex_elgamal_batch
	err = c.commitments.res.use(func(cp *C.struct_oblivex_commitments) error {
		return check(C.oblivex_elgamal_batch_blind(cp, C.oblivex_elgamal_target(c.target), in(flat), size(len(flat)), size(len(items)),
			C.bool(c.blinded), ids(c.quorum), size(len(c.quorum)), C.uint32_t(c.kappa),
			request.ptr(), request.capacity(), &request.written, &p))
	})
	if err != nil {
		return nil, err
	}
	b := &ElGamalBatch{count: len(items), quorum: c.quorum, outputLen: int(C.oblivex_elgamal_batch_output_len(p)), request: request.bytes()}
	b.res.init(p, func(p *C.struct_oblivex_elgamal_batch) { C.oblivex_elgamal_batch_free(p) })
	runtime.SetFinalizer(b, (*ElGamalBatch).Close)
	return b, nil
}

// ElGamalBatch is one batch of an ElGamalClient: its request and its
// secrets, kept until Finalize. Single use; Close wipes it.
type ElGamalBatch struct {
	count     int
	quorum    []uint16
	outputLen int
	request   []byte
	res       resource[*C.struct_oblivex_elgamal_batch]
}

// Request is what to send to every server (the batch's own slice: do not
// modify it).
func (b *ElGamalBatch) Request() []byte { return b.request }

// OutputLen is the size of each output: an element encoding for
// plaintexts, Suite.OutputLen for KEM secrets.
func (b *ElGamalBatch) OutputLen() int { return b.outputLen }

// Close wipes and releases the batch. Idempotent; always nil.
func (b *ElGamalBatch) Close() error { return b.res.close() }

// Finalize checks every server's response, combines t correct ones,
// unblinds, and returns the plaintexts (element encodings) or KEM
// secrets, in order, and the servers caught cheating. Blame, failures and
// spending as ThresholdOPRFBatch.Finalize, plus ErrInvalidInput for a
// ciphertext whose plaintext is the identity (not a valid encryption): no
// output for the whole batch, in a *CheatingServersError naming the
// servers already caught.
func (b *ElGamalBatch) Finalize(responses []Response) ([][]byte, []uint16, error) {
	if err := checkResponses(responses, b.quorum); err != nil {
		return nil, nil, err
	}
	var outputs [][]byte
	var cheaters []uint16
	err := b.res.finish(func(p *C.struct_oblivex_elgamal_batch) error {
		var err error
		outputs, cheaters, err = finalizeThreshold(responses, b.outputLen, b.count,
			func(partyIDs *C.uint16_t, rs **C.uint8_t, lens *C.size_t, n C.size_t, out *C.uint8_t, outCap C.size_t, outW *C.size_t,
				ch *C.uint16_t, chCap C.size_t, chW *C.size_t) C.oblivex_status {
				return C.oblivex_elgamal_batch_finalize(p, partyIDs, rs, lens, n, out, outCap, outW, ch, chCap, chW)
			})
		return err
	})
	return outputs, cheaters, err
}
