package oblivex

// #include <stdlib.h>
// #include <oblivex.h>
import "C"

import (
	"fmt"
	"math/big"
	"runtime"
	"unsafe"
)

// ModulusContext is a precomputed odd modulus (the role of OpenSSL's
// BN_MONT_CTX) for constant-time batch exponentiation. Immutable; safe for
// concurrent use. Close releases it.
type ModulusContext struct {
	modulusLen int
	res        resource[*C.struct_oblivex_mont_ctx]
}

// NewModulusContext precomputes the constants of an odd modulus 1 <= m <
// 2^MaxModulusBits given as big-endian bytes (leading zero bytes are
// ignored): ErrZeroModulus (also for no bytes), ErrEvenModulus,
// ErrModulusTooLarge otherwise.
func NewModulusContext(modulus []byte) (*ModulusContext, error) {
	var p *C.struct_oblivex_mont_ctx
	if err := check(C.oblivex_mont_ctx_new(in(modulus), size(len(modulus)), &p)); err != nil {
		return nil, err
	}
	m := &ModulusContext{modulusLen: int(C.oblivex_mont_ctx_modulus_len(p))}
	m.res.init(p, func(p *C.struct_oblivex_mont_ctx) { C.oblivex_mont_ctx_free(p) })
	runtime.SetFinalizer(m, (*ModulusContext).Close)
	return m, nil
}

// NewModulusContextBig is NewModulusContext for a math/big modulus
// (ErrNullPointer for nil, ErrZeroModulus for zero, ErrBadLength for a
// negative one).
func NewModulusContextBig(modulus *big.Int) (*ModulusContext, error) {
	if modulus == nil {
		return nil, ErrNullPointer
	}
	switch modulus.Sign() {
	case 0:
		return nil, ErrZeroModulus
	case -1:
		return nil, fmt.Errorf("oblivex: negative modulus: %w", ErrBadLength)
	}
	return NewModulusContext(modulus.Bytes())
}

// Close releases the context (its memory is wiped). Idempotent; always
// nil.
func (m *ModulusContext) Close() error { return m.res.close() }

// ModulusLen is the modulus length in bytes, without leading zeros: the
// size of every result.
func (m *ModulusContext) ModulusLen() int { return m.modulusLen }

// ExpBatch computes bases[i]^exponents[i] mod m for every i in constant
// time: the values are secret, only their byte lengths (equal across the
// batch for the bases, and for the exponents: ErrBadLength otherwise, at
// most MaxOperandBytes) set the work, leading zero bytes included. Bases
// of any value are reduced. Results are big-endian, left-padded to
// ModulusLen bytes; exponent 0 gives 1 (0 when m = 1), base 0 gives 0.
// ErrEmptyInput for no values or zero-length operands.
func (m *ModulusContext) ExpBatch(bases, exponents [][]byte) ([][]byte, error) {
	if len(bases) != len(exponents) {
		return nil, ErrBadLength
	}
	b, e, err := flattenOperands(bases, exponents)
	if err != nil {
		return nil, err
	}
	defer wipe(b)
	defer wipe(e)
	n := len(bases)
	out := newOut(n * m.modulusLen)
	err = m.res.use(func(p *C.struct_oblivex_mont_ctx) error {
		return check(C.oblivex_mod_exp_batch(p, in(b), size(len(b)), in(e), size(len(e)), size(n),
			out.ptr(), out.capacity(), &out.written))
	})
	if err != nil {
		wipe(out.buf)
		return nil, err
	}
	return split(out.bytes(), n), nil
}

// flattenOperands packs the bases and the exponents of a batch.
func flattenOperands(bases, exponents [][]byte) (b, e []byte, err error) {
	b, _, err = flatten(bases)
	if err != nil {
		return nil, nil, err
	}
	e, _, err = flatten(exponents)
	if err != nil {
		wipe(b)
		return nil, nil, err
	}
	return b, e, nil
}

// ExpBatchMulti computes bases[i]^exponents[i] mod m_i, m_i the modulus of
// contexts[i] (e.g. the p and q halves of several RSA-CRT decryptions in
// one call), in constant time; operands as in ExpBatch. Every result is as
// long as the longest modulus among contexts, big-endian and left-padded.
// ErrNullPointer for a nil context.
func ExpBatchMulti(contexts []*ModulusContext, bases, exponents [][]byte) ([][]byte, error) {
	return expBatchMulti(contexts, bases, exponents, false)
}

// ExpBatchMultiVartime is ExpBatchMulti for public exponents, such as RSA
// public exponents when a private result is checked (r^e mod n):
// square-and-multiply, 16 squarings and one product for e = 65537, about
// half the work of the constant-time call. Variable time in the exponents:
// never pass a secret one. Constant time in the bases.
func ExpBatchMultiVartime(contexts []*ModulusContext, bases, exponents [][]byte) ([][]byte, error) {
	return expBatchMulti(contexts, bases, exponents, true)
}

// expBatchMulti runs oblivex_mod_exp_batch_multi, or its _vartime form for
// public exponents.
func expBatchMulti(contexts []*ModulusContext, bases, exponents [][]byte, publicExponents bool) ([][]byte, error) {
	n := len(contexts)
	if len(bases) != n || len(exponents) != n {
		return nil, ErrBadLength
	}
	b, e, err := flattenOperands(bases, exponents)
	if err != nil {
		return nil, err
	}
	defer wipe(b)
	defer wipe(e)
	resources := make([]*resource[*C.struct_oblivex_mont_ctx], n)
	width := 0
	for i, m := range contexts {
		if m == nil {
			return nil, ErrNullPointer
		}
		resources[i] = &m.res
		if m.modulusLen > width {
			width = m.modulusLen
		}
	}
	out := newOut(n * width)
	err = useAll(resources, func(handles []*C.struct_oblivex_mont_ctx) error {
		ptrs := cHandles(handles)
		defer C.free(unsafe.Pointer(&ptrs[0]))
		if publicExponents {
			return check(C.oblivex_mod_exp_batch_multi_vartime(&ptrs[0], in(b), size(len(b)), in(e), size(len(e)),
				size(n), out.ptr(), out.capacity(), &out.written))
		}
		return check(C.oblivex_mod_exp_batch_multi(&ptrs[0], in(b), size(len(b)), in(e), size(len(e)), size(n),
			out.ptr(), out.capacity(), &out.written))
	})
	if err != nil {
		wipe(out.buf)
		return nil, err
	}
	return split(out.bytes(), n), nil
}

// bigOperands encodes math/big bases and exponents at the widths of the
// longest of each (at least one byte), so that the work depends only on
// those lengths. Negative values give ErrBadLength, nil ones
// ErrNullPointer.
func bigOperands(bases, exponents []*big.Int) (bs, es [][]byte, err error) {
	if len(bases) != len(exponents) {
		return nil, nil, ErrBadLength
	}
	if len(bases) == 0 {
		return nil, nil, ErrEmptyInput
	}
	width := func(values []*big.Int, what string) (int, error) {
		w := 1
		for _, v := range values {
			if v == nil {
				return 0, ErrNullPointer
			}
			if v.Sign() < 0 {
				return 0, fmt.Errorf("oblivex: negative %s: %w", what, ErrBadLength)
			}
			if l := (v.BitLen() + 7) / 8; l > w {
				w = l
			}
		}
		return w, nil
	}
	bw, err := width(bases, "base")
	if err != nil {
		return nil, nil, err
	}
	ew, err := width(exponents, "exponent")
	if err != nil {
		return nil, nil, err
	}
	bs = make([][]byte, len(bases))
	es = make([][]byte, len(bases))
	for i := range bases {
		bs[i] = bases[i].FillBytes(make([]byte, bw))
		es[i] = exponents[i].FillBytes(make([]byte, ew))
	}
	return bs, es, nil
}

// bigResults decodes results and wipes the operands.
func bigResults(out [][]byte, bs, es [][]byte) []*big.Int {
	for i := range bs {
		wipe(bs[i])
		wipe(es[i])
	}
	results := make([]*big.Int, len(out))
	for i, r := range out {
		results[i] = new(big.Int).SetBytes(r)
		wipe(r)
	}
	return results
}

// ExpBig is ExpBatch for math/big values: bases[i]^exponents[i] mod m.
// Every base is processed with the length of the longest base and every
// exponent with that of the longest exponent, so the work depends only on
// those lengths (bases need not be reduced). Values must not be negative
// (ErrBadLength) or nil (ErrNullPointer).
func (m *ModulusContext) ExpBig(bases, exponents []*big.Int) ([]*big.Int, error) {
	bs, es, err := bigOperands(bases, exponents)
	if err != nil {
		return nil, err
	}
	out, err := m.ExpBatch(bs, es)
	results := bigResults(out, bs, es)
	if err != nil {
		return nil, err
	}
	return results, nil
}

// ExpBigMulti is ExpBatchMulti for math/big values: bases[i]^exponents[i]
// mod the modulus of contexts[i], with the operands encoded as in ExpBig.
func ExpBigMulti(contexts []*ModulusContext, bases, exponents []*big.Int) ([]*big.Int, error) {
	if len(contexts) != len(bases) {
		return nil, ErrBadLength
	}
	bs, es, err := bigOperands(bases, exponents)
	if err != nil {
		return nil, err
	}
	out, err := ExpBatchMulti(contexts, bs, es)
	results := bigResults(out, bs, es)
	if err != nil {
		return nil, err
	}
	return results, nil
}
