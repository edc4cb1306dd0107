package oblivex

// #include <oblivex.h>
import "C"

import "runtime"

// ElGamalEncrypt encrypts message (an element encoding, not the identity)
// under publicKey (e.g. Commitments.PublicKey): the ciphertext c1 || c2.
func ElGamalEncrypt(suite Suite, publicKey, message []byte) ([]byte, error) {
	out := make([]byte, 2*suite.ElementLen())
	var written C.size_t
	if err := check(C.oblivex_elgamal_encrypt(C.int(suite), ptr(publicKey), size(len(publicKey)), ptr(message), size(len(message)),
		ptr(out), size(len(out)), &written)); err != nil {
		return nil, err
	}
	return out[:written], nil
}

// ElGamalEncapsulate is the KEM form: a fresh encapsulation (an element
// encoding) and its shared secret (Suite.OutputLen bytes).
func ElGamalEncapsulate(suite Suite, publicKey []byte) (encapsulation, secret []byte, err error) {
	encapsulation = make([]byte, suite.ElementLen())
	secret = make([]byte, suite.OutputLen())
	var ew, sw C.size_t
	if err := check(C.oblivex_elgamal_encapsulate(C.int(suite), ptr(publicKey), size(len(publicKey)), ptr(encapsulation),
		size(len(encapsulation)), &ew, ptr(secret), size(len(secret)), &sw)); err != nil {
		return nil, nil, err
	}
	return encapsulation[:ew], secret[:sw], nil
}

// DecryptionBatch is a client's batch of ciphertexts or encapsulations
// being decrypted by t of m servers: single use; Close wipes it. Not a
// CCA-secure scheme: a decryption server raises any element to its share.
type DecryptionBatch struct {
	count     int
	outputLen int
	res       resource[C.struct_oblivex_elgamal_client]
}

// Close wipes and releases the batch. Idempotent.
func (b *DecryptionBatch) Close() { b.res.close() }

func newDecryption(commitments *Commitments, target C.int, items [][]byte, blinded bool, quorum []uint16, kappa uint32) (*DecryptionBatch, []byte, error) {
	flat, _, err := flatten(items)
	if err != nil {
		return nil, nil, err
	}
	request := make([]byte, (len(items)+1)*commitments.suite.ElementLen())
	var written C.size_t
	var p *C.struct_oblivex_elgamal_client
	blind := C.int(0)
	if blinded {
		blind = 1
	}
	err = commitments.res.use(func(cp *C.struct_oblivex_commitments) error {
		return check(C.oblivex_elgamal_client_new(cp, target, ptr(flat), size(len(flat)), size(len(items)), blind,
			quorumPtr(quorum), size(len(quorum)), C.uint32_t(kappa), ptr(request), size(len(request)), &written, &p))
	})
	runtime.KeepAlive(commitments)
	runtime.KeepAlive(quorum)
	if err != nil {
		return nil, nil, err
	}
	b := &DecryptionBatch{count: len(items), res: resource[C.struct_oblivex_elgamal_client]{ptr: p, free: func(p *C.struct_oblivex_elgamal_client) { C.oblivex_elgamal_client_free(p) }}}
	b.outputLen = int(C.oblivex_elgamal_client_output_len(p))
	runtime.SetFinalizer(b, (*DecryptionBatch).Close)
	return b, request[:written], nil
}

// NewDecryption prepares the decryption of ciphertexts (c1 || c2 each)
// by the servers sharing the key of commitments, and returns the batch and
// the one request for every server. With blinded the servers cannot link
// the request to the ciphertexts. quorum and kappa as in
// ThresholdOPRFBlind.
func NewDecryption(commitments *Commitments, ciphertexts [][]byte, blinded bool, quorum []uint16, kappa uint32) (*DecryptionBatch, []byte, error) {
	return newDecryption(commitments, C.OBLIVEX_ELGAMAL_PLAINTEXTS, ciphertexts, blinded, quorum, kappa)
}

// NewDecapsulation is NewDecryption for KEM encapsulations.
func NewDecapsulation(commitments *Commitments, encapsulations [][]byte, blinded bool, quorum []uint16, kappa uint32) (*DecryptionBatch, []byte, error) {
	return newDecryption(commitments, C.OBLIVEX_ELGAMAL_KEM_SECRETS, encapsulations, blinded, quorum, kappa)
}

// Finish checks every server, combines t correct answers and returns the
// plaintexts (element encodings) or KEM secrets, in order, and the servers
// caught cheating; or a *CheatingServersError. It spends the batch.
func (b *DecryptionBatch) Finish(rs []Response) ([][]byte, []uint16, error) {
	var outputs [][]byte
	var cheaters []uint16
	err := b.res.spend(func(p *C.struct_oblivex_elgamal_client) error {
		var err error
		outputs, cheaters, err = finishThreshold(rs, b.outputLen, b.count,
			func(ids *C.uint16_t, ptrs **C.uint8_t, lens *C.size_t, n C.size_t, out *C.uint8_t, outCap C.size_t, outW *C.size_t, ch *C.uint16_t, chCap C.size_t, chW *C.size_t) C.enum_oblivex_status {
				return C.oblivex_elgamal_client_finish(p, ids, ptrs, lens, n, out, outCap, outW, ch, chCap, chW)
			})
		return err
	})
	runtime.KeepAlive(b)
	return outputs, cheaters, err
}
