package oblivex

// #include <stdlib.h>
// #include <oblivex.h>
import "C"

import (
	"crypto/rsa"
	"math/big"
	"runtime"
	"unsafe"
)

// RSAKey is an RSA private key in CRT form with its constants precomputed,
// for constant-time batch private operations (raw RSA: decryption, or
// signing an encoded message). Immutable; safe for concurrent use. Close
// releases it (its secrets are wiped).
type RSAKey struct {
	modulusLen int
	res        resource[*C.struct_oblivex_rsa_crt_key]
}

// NewRSAKey makes the key from its CRT parameters, each big-endian
// (leading zero bytes allowed), as in PKCS #1: the primes p and q, dp = d
// mod (p-1), dq = d mod (q-1) and qinv = q^-1 mod p. Errors:
// ErrZeroModulus or ErrEvenModulus (a zero or even prime),
// ErrUnsupportedKeySize (p and q of different bit lengths, or outside
// 2..4096 bits), ErrEqualPrimes, ErrInvalidCRTExponent (dp or dq even or
// not below its prime), ErrInvalidCRTCoefficient, ErrBadLength (a
// parameter longer than MaxOperandBytes). The primality of p and q is not
// checked.
func NewRSAKey(p, q, dp, dq, qinv []byte) (*RSAKey, error) {
	var k *C.struct_oblivex_rsa_crt_key
	status := C.oblivex_rsa_crt_key_new(in(p), size(len(p)), in(q), size(len(q)), in(dp), size(len(dp)),
		in(dq), size(len(dq)), in(qinv), size(len(qinv)), &k)
	if err := check(status); err != nil {
		return nil, err
	}
	key := &RSAKey{modulusLen: int(C.oblivex_rsa_crt_key_modulus_len(k))}
	key.res.init(k, func(k *C.struct_oblivex_rsa_crt_key) { C.oblivex_rsa_crt_key_free(k) })
	runtime.SetFinalizer(key, (*RSAKey).Close)
	return key, nil
}

// NewRSAKeyFrom is NewRSAKey for a crypto/rsa key with two primes
// (ErrNullPointer for nil, ErrUnsupportedKeySize for another number of
// primes). It computes the CRT values itself (crypto/rsa keeps them
// unexported), so the key need not have been precomputed.
func NewRSAKeyFrom(key *rsa.PrivateKey) (*RSAKey, error) {
	if key == nil {
		return nil, ErrNullPointer
	}
	if len(key.Primes) != 2 {
		return nil, ErrUnsupportedKeySize
	}
	p, q := key.Primes[0], key.Primes[1]
	one := big.NewInt(1)
	dp := new(big.Int).Mod(key.D, new(big.Int).Sub(p, one))
	dq := new(big.Int).Mod(key.D, new(big.Int).Sub(q, one))
	qinv := new(big.Int).ModInverse(q, p)
	if qinv == nil {
		return nil, ErrInvalidCRTCoefficient
	}
	dpBytes, dqBytes, qinvBytes := dp.Bytes(), dq.Bytes(), qinv.Bytes()
	defer wipe(dpBytes)
	defer wipe(dqBytes)
	defer wipe(qinvBytes)
	return NewRSAKey(p.Bytes(), q.Bytes(), dpBytes, dqBytes, qinvBytes)
}

// Close releases the key (its memory is wiped). Idempotent; always nil.
func (k *RSAKey) Close() error { return k.res.close() }

// ModulusLen is the length in bytes of the modulus n: the width of every
// ciphertext and result.
func (k *RSAKey) ModulusLen() int { return k.modulusLen }

// PrivateBatch computes c^d mod n for every ciphertext (ModulusLen bytes
// each, big-endian, each below n), in constant time in the key and the
// results, with the CRT: both halves of every ciphertext in one batch of
// the engine. Results are big-endian, ModulusLen bytes each. Errors:
// ErrEmptyInput for none, ErrBadLength for a ciphertext of another width,
// ErrCiphertextOutOfRange for one not below n.
func (k *RSAKey) PrivateBatch(ciphertexts [][]byte) ([][]byte, error) {
	for _, c := range ciphertexts {
		if len(c) != k.modulusLen {
			return nil, ErrBadLength
		}
	}
	flat, _, err := flatten(ciphertexts)
	if err != nil {
		return nil, err
	}
	n := len(ciphertexts)
	out := newOut(n * k.modulusLen)
	err = k.res.use(func(p *C.struct_oblivex_rsa_crt_key) error {
		return check(C.oblivex_rsa_private_batch(p, in(flat), size(len(flat)), size(n),
			out.ptr(), out.capacity(), &out.written))
	})
	if err != nil {
		wipe(out.buf)
		return nil, err
	}
	return split(out.bytes(), n), nil
}

// RSAPrivateBatchKeys computes c_i^d_i mod n_i with one key per ciphertext
// (keys[i] for ciphertexts[i]), so that callers of different keys (a
// server with several certificates) share one batch of the engine. The
// keys' primes must all have one bit length (ErrUnsupportedKeySize
// otherwise), so every ciphertext and result has the keys' ModulusLen.
// As PrivateBatch in every other respect; ErrBadLength unless there are
// as many keys as ciphertexts, ErrNullPointer for a nil key.
func RSAPrivateBatchKeys(keys []*RSAKey, ciphertexts [][]byte) ([][]byte, error) {
	n := len(keys)
	if n != len(ciphertexts) {
		return nil, ErrBadLength
	}
	if n == 0 {
		return nil, ErrEmptyInput
	}
	resources := make([]*resource[*C.struct_oblivex_rsa_crt_key], n)
	for i, k := range keys {
		if k == nil {
			return nil, ErrNullPointer
		}
		if len(ciphertexts[i]) != keys[0].modulusLen {
			return nil, ErrBadLength
		}
		resources[i] = &k.res
	}
	flat, _, err := flatten(ciphertexts)
	if err != nil {
		return nil, err
	}
	out := newOut(n * keys[0].modulusLen)
	err = useAll(resources, func(handles []*C.struct_oblivex_rsa_crt_key) error {
		ptrs := cHandles(handles)
		defer C.free(unsafe.Pointer(&ptrs[0]))
		return check(C.oblivex_rsa_private_batch_keys(&ptrs[0], in(flat), size(len(flat)), size(n),
			out.ptr(), out.capacity(), &out.written))
	})
	if err != nil {
		wipe(out.buf)
		return nil, err
	}
	return split(out.bytes(), n), nil
}
