package oblivex

// #include <stdlib.h>
// #include <oblivex.h>
import "C"

import (
	"math/big"
	"runtime"
	"unsafe"
)

// ModulusContext is a precomputed odd modulus (like OpenSSL's BN_MONT_CTX)
// for constant-time batch exponentiation. Immutable; safe for concurrent
// use.
type ModulusContext struct {
	res resource[C.struct_oblivex_mont_ctx]
}

// NewModulusContext precomputes the Montgomery constants of an odd modulus
// (big-endian bytes, 3 up to 8192 bits). ErrEvenModulus, ErrZeroModulus,
// ErrEmptyInput, ErrModulusTooLarge otherwise.
func NewModulusContext(modulus []byte) (*ModulusContext, error) {
	var p *C.struct_oblivex_mont_ctx
	if err := check(C.oblivex_mont_ctx_new(ptr(modulus), size(len(modulus)), &p)); err != nil {
		return nil, err
	}
	m := &ModulusContext{res: resource[C.struct_oblivex_mont_ctx]{ptr: p, free: func(p *C.struct_oblivex_mont_ctx) { C.oblivex_mont_ctx_free(p) }}}
	runtime.SetFinalizer(m, (*ModulusContext).Close)
	return m, nil
}

// NewModulusContextBig is NewModulusContext for a math/big modulus.
func NewModulusContextBig(modulus *big.Int) (*ModulusContext, error) {
	if modulus.Sign() <= 0 {
		return nil, ErrZeroModulus
	}
	return NewModulusContext(modulus.Bytes())
}

// Close releases the context. Idempotent.
func (m *ModulusContext) Close() { m.res.close() }

// ModulusLen is the modulus length in bytes: the size of every result.
func (m *ModulusContext) ModulusLen() int {
	n := 0
	_ = m.res.use(func(p *C.struct_oblivex_mont_ctx) error {
		n = int(C.oblivex_mont_ctx_modulus_len(p))
		return nil
	})
	runtime.KeepAlive(m)
	return n
}

// flatten packs equal-length operands (ErrBadLength if they differ).
func flatten(values [][]byte) ([]byte, int, error) {
	if len(values) == 0 {
		return nil, 0, ErrEmptyInput
	}
	width := len(values[0])
	out := make([]byte, 0, width*len(values))
	for _, v := range values {
		if len(v) != width {
			return nil, 0, ErrBadLength
		}
		out = append(out, v...)
	}
	return out, width, nil
}

// ExpBatch computes bases[i]^exponents[i] mod m for every i in constant
// time (bases and exponents are secret; only their byte lengths, which
// must be equal across the batch, set the work). Results are big-endian,
// left-padded to ModulusLen bytes.
func (m *ModulusContext) ExpBatch(bases, exponents [][]byte) ([][]byte, error) {
	if len(bases) != len(exponents) {
		return nil, ErrBadLength
	}
	b, bw, err := flatten(bases)
	if err != nil {
		return nil, err
	}
	defer wipe(b)
	e, ew, err := flatten(exponents)
	if err != nil {
		return nil, err
	}
	defer wipe(e)
	var out []byte
	err = m.res.use(func(p *C.struct_oblivex_mont_ctx) error {
		out = make([]byte, len(bases)*int(C.oblivex_mont_ctx_modulus_len(p)))
		var written C.size_t
		return check(C.oblivex_mod_exp_batch(p, ptr(b), size(bw), ptr(e), size(ew), size(len(bases)),
			ptr(out), size(len(out)), &written))
	})
	runtime.KeepAlive(m)
	if err != nil {
		return nil, err
	}
	return split(out, len(bases)), nil
}

// ExpBatchMulti computes bases[i]^exponents[i] mod m_i with m_i the modulus
// of contexts[i] (e.g. the CRT halves of several RSA decryptions), in
// constant time. Results are left-padded to the longest modulus.
func ExpBatchMulti(contexts []*ModulusContext, bases, exponents [][]byte) ([][]byte, error) {
	n := len(contexts)
	if len(bases) != n || len(exponents) != n {
		return nil, ErrBadLength
	}
	b, bw, err := flatten(bases)
	if err != nil {
		return nil, err
	}
	defer wipe(b)
	e, ew, err := flatten(exponents)
	if err != nil {
		return nil, err
	}
	defer wipe(e)
	// Hold every context's read lock for the call.
	ptrs := unsafe.Slice((**C.struct_oblivex_mont_ctx)(C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof(uintptr(0))))), n)
	defer C.free(unsafe.Pointer(&ptrs[0]))
	width := 0
	for i, m := range contexts {
		if m == nil {
			return nil, ErrNullPointer
		}
		m.res.mu.RLock()
		defer m.res.mu.RUnlock()
		if m.res.ptr == nil {
			return nil, ErrClosed
		}
		ptrs[i] = m.res.ptr
		if l := int(C.oblivex_mont_ctx_modulus_len(m.res.ptr)); l > width {
			width = l
		}
	}
	out := make([]byte, n*width)
	var written C.size_t
	err = check(C.oblivex_mod_exp_batch_multi(&ptrs[0], ptr(b), size(bw), ptr(e), size(ew), size(n),
		size(width), ptr(out), size(len(out)), &written))
	runtime.KeepAlive(contexts)
	if err != nil {
		return nil, err
	}
	return split(out, n), nil
}

// ExpBig is ExpBatch for math/big values: every base is reduced modulo m
// first; every exponent is processed with the length of the longest one
// (so the work depends only on that length). Exponents must not be
// negative (ErrBadLength).
func (m *ModulusContext) ExpBig(bases, exponents []*big.Int) ([]*big.Int, error) {
	if len(bases) != len(exponents) || len(bases) == 0 {
		return nil, ErrBadLength
	}
	elen := 1
	for _, e := range exponents {
		if e.Sign() < 0 {
			return nil, ErrBadLength
		}
		if l := len(e.Bytes()); l > elen {
			elen = l
		}
	}
	blen := 1
	for _, b := range bases {
		if b.Sign() < 0 {
			return nil, ErrBadLength
		}
		if l := len(b.Bytes()); l > blen {
			blen = l
		}
	}
	bs := make([][]byte, len(bases))
	es := make([][]byte, len(bases))
	for i := range bases {
		bs[i] = bases[i].FillBytes(make([]byte, blen))
		es[i] = exponents[i].FillBytes(make([]byte, elen))
	}
	out, err := m.ExpBatch(bs, es)
	for i := range bs {
		wipe(bs[i])
		wipe(es[i])
	}
	if err != nil {
		return nil, err
	}
	results := make([]*big.Int, len(out))
	for i, r := range out {
		results[i] = new(big.Int).SetBytes(r)
	}
	return results, nil
}
