package oblivex

import (
	"bytes"
	"crypto/rand"
	"errors"
	"math/big"
	"testing"
)

func randomOdd(t *testing.T, bits int) *big.Int {
	t.Helper()
	m, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), uint(bits)))
	if err != nil {
		t.Fatal(err)
	}
	m.SetBit(m, bits-1, 1)
	m.SetBit(m, 0, 1)
	return m
}

func randomBelow(t *testing.T, bound *big.Int) *big.Int {
	t.Helper()
	x, err := rand.Int(rand.Reader, bound)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func TestExpMatchesMathBig(t *testing.T) {
	for _, bits := range []int{17, 256, 1024, 1536, 2048, 3072, 4096, 4100} {
		m := randomOdd(t, bits)
		ctx, err := NewModulusContextBig(m)
		if err != nil {
			t.Fatal(err)
		}
		n := 11 // a full SIMD group of 8 and a padded tail
		bases := make([]*big.Int, n)
		exps := make([]*big.Int, n)
		for i := range bases {
			bases[i] = randomBelow(t, new(big.Int).Lsh(m, 3)) // some above m
			exps[i] = randomBelow(t, m)
		}
		bases[0].SetInt64(0)
		exps[1].SetInt64(0)
		got, err := ctx.ExpBig(bases, exps)
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			want := new(big.Int).Exp(bases[i], exps[i], m)
			if got[i].Cmp(want) != 0 {
				t.Fatalf("%d bits, value %d: got %x want %x", bits, i, got[i], want)
			}
		}
		if ctx.ModulusLen() != (m.BitLen()+7)/8 {
			t.Fatalf("modulus length %d", ctx.ModulusLen())
		}
		if err := ctx.Close(); err != nil {
			t.Fatal(err)
		}
		if err := ctx.Close(); err != nil { // idempotent
			t.Fatal(err)
		}
		if _, err := ctx.ExpBig(bases, exps); !errors.Is(err, ErrClosed) {
			t.Fatalf("closed context: %v", err)
		}
	}
}

func TestExpBatchBytes(t *testing.T) {
	ctx, err := NewModulusContext([]byte{0x01, 0x00, 0x01}) // 65537
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	got, err := ctx.ExpBatch([][]byte{{2}, {3}}, [][]byte{{10}, {4}})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got[0], []byte{0, 4, 0}) || !bytes.Equal(got[1], []byte{0, 0, 81}) {
		t.Fatalf("2^10, 3^4 mod 65537: %x %x", got[0], got[1])
	}
}

func TestExpBatchMulti(t *testing.T) {
	p, q := randomOdd(t, 1024), randomOdd(t, 1000)
	cp, err := NewModulusContextBig(p)
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	cq, err := NewModulusContextBig(q)
	if err != nil {
		t.Fatal(err)
	}
	defer cq.Close()
	// Contexts repeat: each is locked once.
	contexts := []*ModulusContext{cp, cq, cp, cq, cq}
	moduli := []*big.Int{p, q, p, q, q}
	bases := make([][]byte, len(contexts))
	exps := make([][]byte, len(contexts))
	bigBases := make([]*big.Int, len(contexts))
	bigExps := make([]*big.Int, len(contexts))
	for i := range contexts {
		bigBases[i], bigExps[i] = randomBelow(t, p), randomBelow(t, p)
		bases[i] = bigBases[i].FillBytes(make([]byte, 128))
		exps[i] = bigExps[i].FillBytes(make([]byte, 128))
	}
	got, err := ExpBatchMulti(contexts, bases, exps)
	if err != nil {
		t.Fatal(err)
	}
	gotPublic, err := ExpBatchMultiVartime(contexts, bases, exps)
	if err != nil {
		t.Fatal(err)
	}
	gotBig, err := ExpBigMulti(contexts, bigBases, bigExps)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		want := new(big.Int).Exp(bigBases[i], bigExps[i], moduli[i])
		if !bytes.Equal(got[i], want.FillBytes(make([]byte, 128))) { // the longest modulus: 128 bytes
			t.Fatalf("value %d differs", i)
		}
		if !bytes.Equal(gotPublic[i], got[i]) {
			t.Fatalf("public-exponent value %d differs", i)
		}
		if gotBig[i].Cmp(want) != 0 {
			t.Fatalf("math/big value %d differs", i)
		}
	}
	if _, err := ExpBatchMulti([]*ModulusContext{cp, nil}, bases[:2], exps[:2]); !errors.Is(err, ErrNullPointer) {
		t.Fatalf("nil context: %v", err)
	}
	if _, err := ExpBatchMultiVartime([]*ModulusContext{cp, nil}, bases[:2], exps[:2]); !errors.Is(err, ErrNullPointer) {
		t.Fatalf("nil context, public exponents: %v", err)
	}
	if _, err := ExpBigMulti(contexts[:2], bigBases, bigExps); !errors.Is(err, ErrBadLength) {
		t.Fatalf("count mismatch: %v", err)
	}
	closed, _ := NewModulusContextBig(q)
	closed.Close()
	if _, err := ExpBatchMulti([]*ModulusContext{cp, closed}, bases[:2], exps[:2]); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed context: %v", err)
	}
}

func TestModexpErrors(t *testing.T) {
	if _, err := NewModulusContext([]byte{0x10}); !errors.Is(err, ErrEvenModulus) {
		t.Fatalf("even: %v", err)
	}
	if _, err := NewModulusContext([]byte{0, 0}); !errors.Is(err, ErrZeroModulus) {
		t.Fatalf("zero: %v", err)
	}
	if _, err := NewModulusContext(nil); !errors.Is(err, ErrZeroModulus) {
		t.Fatalf("no bytes: %v", err)
	}
	if _, err := NewModulusContextBig(nil); !errors.Is(err, ErrNullPointer) {
		t.Fatalf("nil: %v", err)
	}
	if _, err := NewModulusContextBig(big.NewInt(-7)); !errors.Is(err, ErrBadLength) {
		t.Fatalf("negative: %v", err)
	}
	if _, err := NewModulusContext(make([]byte, 1025)); err == nil {
		t.Fatal("all-zero 8200-bit modulus accepted")
	}
	huge := make([]byte, 1100)
	huge[0], huge[len(huge)-1] = 1, 1
	if _, err := NewModulusContext(huge); !errors.Is(err, ErrModulusTooLarge) {
		t.Fatalf("too large: %v", err)
	}
	ctx, err := NewModulusContext([]byte{0xff, 0xfb})
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	if _, err := ctx.ExpBatch([][]byte{{1}, {2, 3}}, [][]byte{{1}, {1}}); !errors.Is(err, ErrBadLength) {
		t.Fatalf("ragged bases: %v", err)
	}
	if _, err := ctx.ExpBatch(nil, nil); !errors.Is(err, ErrEmptyInput) {
		t.Fatalf("empty batch: %v", err)
	}
	if _, err := ctx.ExpBatch([][]byte{{}}, [][]byte{{1}}); !errors.Is(err, ErrEmptyInput) {
		t.Fatalf("zero-length base: %v", err)
	}
	if _, err := ctx.ExpBatch([][]byte{{1}}, [][]byte{{1}, {2}}); !errors.Is(err, ErrBadLength) {
		t.Fatalf("count mismatch: %v", err)
	}
	if _, err := ctx.ExpBatch([][]byte{{1}}, [][]byte{make([]byte, MaxOperandBytes+1)}); !errors.Is(err, ErrBadLength) {
		t.Fatalf("long exponent: %v", err)
	}
	if _, err := ctx.ExpBig([]*big.Int{big.NewInt(2)}, []*big.Int{big.NewInt(-1)}); !errors.Is(err, ErrBadLength) {
		t.Fatalf("negative exponent: %v", err)
	}
	if _, err := ctx.ExpBig([]*big.Int{nil}, []*big.Int{big.NewInt(1)}); !errors.Is(err, ErrNullPointer) {
		t.Fatalf("nil base: %v", err)
	}
	if _, err := ctx.ExpBig(nil, nil); !errors.Is(err, ErrEmptyInput) {
		t.Fatalf("no values: %v", err)
	}
}
