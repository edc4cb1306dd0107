package oblivex

import (
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"math/big"
	"testing"
)

func TestRSAPrivateBatchMatchesMathBig(t *testing.T) {
	for _, bits := range []int{2048, 3072} {
		priv, err := rsa.GenerateKey(rand.Reader, bits)
		if err != nil {
			t.Fatal(err)
		}
		key, err := NewRSAKeyFrom(priv)
		if err != nil {
			t.Fatal(err)
		}
		if key.ModulusLen() != bits/8 {
			t.Fatalf("modulus length %d", key.ModulusLen())
		}
		n := 9 // 18 halves: two full lane groups and a partial one
		cts := make([][]byte, n)
		for i := range cts {
			cts[i] = randomBelow(t, priv.N).FillBytes(make([]byte, key.ModulusLen()))
		}
		got, err := key.PrivateBatch(cts)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range cts {
			want := new(big.Int).Exp(new(big.Int).SetBytes(c), priv.D, priv.N)
			if new(big.Int).SetBytes(got[i]).Cmp(want) != 0 || len(got[i]) != key.ModulusLen() {
				t.Fatalf("RSA-%d, ciphertext %d differs", bits, i)
			}
		}
		if err := key.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := key.PrivateBatch(cts); !errors.Is(err, ErrClosed) {
			t.Fatalf("closed key: %v", err)
		}
	}
}

func TestRSAPrivateBatchKeys(t *testing.T) {
	privs := make([]*rsa.PrivateKey, 2)
	keys := make([]*RSAKey, 2)
	for i := range privs {
		priv, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			t.Fatal(err)
		}
		key, err := NewRSAKeyFrom(priv)
		if err != nil {
			t.Fatal(err)
		}
		defer key.Close()
		privs[i], keys[i] = priv, key
	}
	// Nine ciphertexts, the two keys alternating (repeats lock each once).
	which := make([]*RSAKey, 9)
	cts := make([][]byte, 9)
	for i := range cts {
		which[i] = keys[i%2]
		cts[i] = randomBelow(t, privs[i%2].N).FillBytes(make([]byte, 256))
	}
	got, err := RSAPrivateBatchKeys(which, cts)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cts {
		priv := privs[i%2]
		want := new(big.Int).Exp(new(big.Int).SetBytes(c), priv.D, priv.N)
		if new(big.Int).SetBytes(got[i]).Cmp(want) != 0 {
			t.Fatalf("ciphertext %d differs", i)
		}
	}
	if _, err := RSAPrivateBatchKeys(which[:2], cts); !errors.Is(err, ErrBadLength) {
		t.Fatalf("count mismatch: %v", err)
	}
	if _, err := RSAPrivateBatchKeys([]*RSAKey{keys[0], nil}, cts[:2]); !errors.Is(err, ErrNullPointer) {
		t.Fatalf("nil key: %v", err)
	}
	if _, err := RSAPrivateBatchKeys(nil, nil); !errors.Is(err, ErrEmptyInput) {
		t.Fatalf("no key: %v", err)
	}
	closed, err := NewRSAKeyFrom(privs[1])
	if err != nil {
		t.Fatal(err)
	}
	closed.Close()
	if _, err := RSAPrivateBatchKeys([]*RSAKey{keys[0], closed}, cts[:2]); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed key: %v", err)
	}
}

func TestRSARefusals(t *testing.T) {
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	p, q := priv.Primes[0], priv.Primes[1]
	one := big.NewInt(1)
	dp := new(big.Int).Mod(priv.D, new(big.Int).Sub(p, one))
	dq := new(big.Int).Mod(priv.D, new(big.Int).Sub(q, one))
	qinv := new(big.Int).ModInverse(q, p)
	even := new(big.Int).Sub(p, one)
	cases := []struct {
		name              string
		p, q, dp, dq, qiv *big.Int
		want              error
	}{
		{"even p", even, q, dp, dq, qinv, ErrEvenModulus},
		{"p = q", p, p, dp, dp, qinv, ErrEqualPrimes},
		{"short q", p, big.NewInt(65537), dp, dq, qinv, ErrUnsupportedKeySize},
		{"even dp", p, q, new(big.Int).Add(dp, one), dq, qinv, ErrInvalidCRTExponent},
		{"wrong qinv", p, q, dp, dq, new(big.Int).Add(qinv, one), ErrInvalidCRTCoefficient},
	}
	for _, c := range cases {
		if _, err := NewRSAKey(c.p.Bytes(), c.q.Bytes(), c.dp.Bytes(), c.dq.Bytes(), c.qiv.Bytes()); !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
	if _, err := NewRSAKeyFrom(nil); !errors.Is(err, ErrNullPointer) {
		t.Errorf("nil key: %v", err)
	}
	key, err := NewRSAKeyFrom(priv)
	if err != nil {
		t.Fatal(err)
	}
	defer key.Close()
	if _, err := key.PrivateBatch([][]byte{priv.N.Bytes()}); !errors.Is(err, ErrCiphertextOutOfRange) {
		t.Errorf("c = n: %v", err)
	}
	if _, err := key.PrivateBatch([][]byte{{1}}); !errors.Is(err, ErrBadLength) {
		t.Errorf("short ciphertext: %v", err)
	}
	if _, err := key.PrivateBatch(nil); !errors.Is(err, ErrEmptyInput) {
		t.Errorf("no ciphertext: %v", err)
	}
}
