package oblivex

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

// respond has every server of ids answer request; servers whose id is in
// cheat answer with the next server's share instead.
func respond(t *testing.T, shares []*KeyShare, request []byte, quorum []uint16, ids []uint16, cheat map[uint16]bool) []Response {
	t.Helper()
	var out []Response
	for _, id := range ids {
		share := shares[id-1]
		q := quorum
		if cheat[id] {
			share, q = shares[int(id)%len(shares)], nil
		}
		elements, err := share.Evaluate(q, request)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Response{Party: id, Elements: elements})
	}
	return out
}

var all5 = []uint16{1, 2, 3, 4, 5}

func TestThresholdSharing(t *testing.T) {
	shares, commitments, err := Deal(SuiteP256, nil, 3, 5)
	if err != nil {
		t.Fatal(err)
	}
	defer commitments.Close()
	if commitments.Threshold() != 3 || commitments.Suite() != SuiteP256 || commitments.PublicKey().Suite() != SuiteP256 {
		t.Fatal("commitments")
	}
	for i, s := range shares {
		if s.ID() != uint16(i+1) || s.Suite() != SuiteP256 {
			t.Fatalf("id %d", s.ID())
		}
		b := must(s.Bytes())
		copyShare := must(ParseKeyShare(SuiteP256, b))
		if err := commitments.VerifyShare(copyShare); err != nil {
			t.Fatal(err)
		}
		b[0], b[1] = 0, byte((i+1)%5+1) // the next party's id
		moved := must(ParseKeyShare(SuiteP256, b))
		if err := commitments.VerifyShare(moved); !errors.Is(err, ErrVerificationFailed) {
			t.Fatalf("moved share: %v", err)
		}
		wipe(b)
		moved.Close()
		s.Close()
		if _, err := s.Bytes(); !errors.Is(err, ErrClosed) {
			t.Fatalf("closed share: %v", err)
		}
		if err := commitments.VerifyShare(s); !errors.Is(err, ErrClosed) {
			t.Fatalf("closed share: %v", err)
		}
	}
	cb := must(commitments.Bytes())
	parsed := must(ParseCommitments(SuiteP256, cb))
	if parsed.Threshold() != 3 || !parsed.PublicKey().Equal(commitments.PublicKey()) {
		t.Fatal("parsed commitments")
	}
	if _, err := ParseCommitments(SuiteP256, cb[1:]); !errors.Is(err, ErrBadLength) {
		t.Fatalf("short commitments: %v", err)
	}
	if _, _, err := Deal(SuiteP256, nil, 4, 3); !errors.Is(err, ErrInvalidThreshold) {
		t.Fatalf("t > m: %v", err)
	}
	if _, _, err := Deal(SuiteP256, nil, 1, MaxParties+1); !errors.Is(err, ErrInvalidThreshold) {
		t.Fatalf("m too large: %v", err)
	}
	if _, _, err := Deal(Suite(99), nil, 2, 3); !errors.Is(err, ErrUnknownSuite) {
		t.Fatalf("suite: %v", err)
	}
	if _, _, err := Deal(SuiteP256, []byte{}, 2, 3); !errors.Is(err, ErrInvalidScalar) {
		t.Fatalf("empty secret: %v", err)
	}
	if _, _, err := Deal(SuiteP256, make([]byte, 32), 2, 3); !errors.Is(err, ErrInvalidScalar) {
		t.Fatalf("zero secret: %v", err)
	}
	if _, err := ParseKeyShare(SuiteP256, make([]byte, 34)); !errors.Is(err, ErrInvalidPartyID) {
		t.Fatalf("id 0: %v", err)
	}
	if _, err := ParseKeyShare(SuiteP256, nil); !errors.Is(err, ErrBadLength) {
		t.Fatalf("no bytes: %v", err)
	}
	// Mixed suites.
	rShares, rCommitments := deal(t, SuiteRistretto255, nil, 1, 1)
	if err := commitments.VerifyShare(rShares[0]); !errors.Is(err, ErrSuiteMismatch) {
		t.Fatalf("mixed suites: %v", err)
	}
	if err := commitments.VerifyShare(nil); !errors.Is(err, ErrNullPointer) {
		t.Fatalf("nil share: %v", err)
	}
	rCommitments.Close()
	if _, err := rCommitments.Bytes(); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed commitments: %v", err)
	}
}

// deal is Deal, failing the test on an error.
func deal(t *testing.T, suite Suite, secret []byte, threshold, parties int) ([]*KeyShare, *Commitments) {
	t.Helper()
	shares, commitments, err := Deal(suite, secret, threshold, parties)
	if err != nil {
		t.Fatal(err)
	}
	return shares, commitments
}

// dealBLS is DealBLS, failing the test on an error.
func dealBLS(t *testing.T, secret []byte, threshold, parties int) ([]*KeyShare, *BLSKeySet) {
	t.Helper()
	shares, keySet, err := DealBLS(secret, threshold, parties)
	if err != nil {
		t.Fatal(err)
	}
	return shares, keySet
}

func TestThresholdOPRF(t *testing.T) {
	secret := make([]byte, 32)
	secret[0] = 7
	shares, commitments := deal(t, SuiteRistretto255, secret, 3, 5)
	single := must(NewOPRFServer(SuiteRistretto255, secret))
	if !single.PublicKey().Equal(commitments.PublicKey()) {
		t.Fatal("the shared key's public key")
	}
	in := inputs(4)
	plain := must(NewOPRFClient(SuiteRistretto255))
	batch := must(plain.Blind(in))
	evaluated, _ := single.Evaluate(batch.Request())
	want := must(batch.Finalize(evaluated))

	run := func(ids []uint16, quorum []uint16, cheat map[uint16]bool) ([][]byte, []uint16, error) {
		client := must(NewThresholdOPRFClient(commitments, quorum, 0))
		batch := must(client.Blind(in))
		if len(batch.Request()) != (len(in)+1)*SuiteRistretto255.ElementLen() {
			t.Fatal("request length")
		}
		return batch.Finalize(respond(t, shares, batch.Request(), quorum, ids, cheat))
	}
	got, cheaters, err := run(all5, nil, nil)
	if err != nil || !reflect.DeepEqual(got, want) || len(cheaters) != 0 {
		t.Fatalf("honest: %v %v", err, cheaters)
	}
	got, cheaters, err = run(all5, nil, map[uint16]bool{4: true})
	if err != nil || !reflect.DeepEqual(got, want) || !reflect.DeepEqual(cheaters, []uint16{4}) {
		t.Fatalf("one cheater: %v %v", err, cheaters)
	}
	_, _, err = run(all5, nil, map[uint16]bool{1: true, 2: true, 5: true})
	var named *CheatingServersError
	if !errors.Is(err, ErrNotEnoughResponses) || !errors.As(err, &named) || !reflect.DeepEqual(named.Servers, []uint16{1, 2, 5}) {
		t.Fatalf("three cheaters: %v", err)
	}
	quorum := []uint16{2, 3, 5}
	got, _, err = run(quorum, quorum, nil)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("quorum: %v", err)
	}
	_, _, err = run(quorum, quorum, map[uint16]bool{3: true})
	if !errors.Is(err, ErrVerificationFailed) || !errors.As(err, &named) || !reflect.DeepEqual(named.Servers, []uint16{3}) {
		t.Fatalf("quorum cheater: %v", err)
	}

	// No answer at all: not enough, nobody named.
	client := must(NewThresholdOPRFClient(commitments, nil, 64))
	empty := must(client.Blind(in))
	if _, _, err := empty.Finalize(nil); !errors.As(err, &named) || !errors.Is(err, ErrNotEnoughResponses) || len(named.Servers) != 0 {
		t.Fatalf("no responses: %v", err)
	}
	if _, _, err := empty.Finalize(nil); !errors.Is(err, ErrBatchUsed) {
		t.Fatalf("spent: %v", err)
	}
	// A repeated id is refused and leaves the batch usable.
	b := must(client.Blind(in))
	rs := respond(t, shares, b.Request(), nil, []uint16{1, 2, 3}, nil)
	if _, _, err := b.Finalize(append(rs, rs[0])); !errors.Is(err, ErrInvalidPartyID) {
		t.Fatalf("repeated id: %v", err)
	}
	if _, _, err := b.Finalize(append(rs, Response{Party: 0})); !errors.Is(err, ErrInvalidPartyID) {
		t.Fatalf("id 0: %v", err)
	}
	if got, _, err := b.Finalize(rs); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("after a refused call: %v", err)
	}
	// A server outside the named quorum: refused, the batch stays usable.
	qClient := must(NewThresholdOPRFClient(commitments, quorum, 0))
	qb := must(qClient.Blind(in))
	rs = respond(t, shares, qb.Request(), quorum, quorum, nil)
	outsider := respond(t, shares, qb.Request(), nil, []uint16{1}, nil)
	if _, _, err := qb.Finalize(append(rs, outsider...)); !errors.Is(err, ErrInvalidPartyID) {
		t.Fatalf("outside the quorum: %v", err)
	}
	if got, _, err := qb.Finalize(rs); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("after a refused call: %v", err)
	}
	if q := qClient.Quorum(); !reflect.DeepEqual(q, quorum) || qClient.Commitments() != commitments || qClient.Kappa() != 0 {
		t.Fatal("configuration")
	}

	// Configuration errors.
	if _, err := NewThresholdOPRFClient(commitments, []uint16{1, 2}, 0); !errors.Is(err, ErrInvalidPartyID) {
		t.Fatalf("short quorum: %v", err)
	}
	if _, err := NewThresholdOPRFClient(commitments, []uint16{1, 2, 2}, 0); !errors.Is(err, ErrInvalidPartyID) {
		t.Fatalf("repeated id: %v", err)
	}
	if _, err := NewThresholdOPRFClient(commitments, []uint16{0, 1, 2}, 0); !errors.Is(err, ErrInvalidPartyID) {
		t.Fatalf("id 0: %v", err)
	}
	if _, err := NewThresholdOPRFClient(commitments, nil, 200); !errors.Is(err, ErrInvalidKappa) {
		t.Fatalf("kappa: %v", err)
	}
	if _, err := NewThresholdOPRFClient(nil, nil, 0); !errors.Is(err, ErrNullPointer) {
		t.Fatalf("nil commitments: %v", err)
	}
	if _, err := client.Blind(nil); !errors.Is(err, ErrEmptyInput) {
		t.Fatalf("no input: %v", err)
	}
	if _, err := (&ThresholdOPRFClient{}).Blind(in); !errors.Is(err, ErrNullPointer) {
		t.Fatalf("zero client: %v", err)
	}
	// A server outside the quorum, and a quorum without the server.
	if _, err := shares[0].Evaluate([]uint16{2, 3, 4}, b.Request()); !errors.Is(err, ErrInvalidPartyID) {
		t.Fatalf("server outside the quorum: %v", err)
	}
	if _, err := shares[0].Evaluate(nil, b.Request()[1:]); !errors.Is(err, ErrBadLength) {
		t.Fatalf("short request: %v", err)
	}
	commitments.Close()
	if _, err := client.Blind(in); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed commitments: %v", err)
	}
}

func TestThresholdBLS(t *testing.T) {
	shares, keySet := dealBLS(t, nil, 3, 5)
	if keySet.Threshold() != 3 || keySet.Parties() != 5 || shares[0].Suite() != SuiteBLS12381G1 {
		t.Fatal("key set")
	}
	b := must(keySet.Bytes())
	parsed := must(ParseBLSKeySet(b))
	if parsed.Threshold() != 3 || parsed.Parties() != 5 || !parsed.PublicKey().Equal(keySet.PublicKey()) {
		t.Fatal("parsed key set")
	}
	tampered := append([]byte(nil), b...)
	copy(tampered[4+96:4+192], tampered[4+192:4+288])
	if _, err := ParseBLSKeySet(tampered); !errors.Is(err, ErrVerificationFailed) {
		t.Fatalf("inconsistent key set: %v", err)
	}
	if _, err := ParseBLSKeySet(b[:3]); !errors.Is(err, ErrBadLength) {
		t.Fatalf("short key set: %v", err)
	}
	pk := must(ParseBLSPublicKey(parsed.PublicKey().Bytes()))
	if _, err := ParseBLSPublicKey(pk.Bytes()[1:]); !errors.Is(err, ErrBadLength) && !errors.Is(err, ErrInvalidElement) {
		t.Fatalf("short public key: %v", err)
	}
	if _, err := ParseBLSPublicKey(bytes.Repeat([]byte{0xff}, BLSPublicKeyLen)); !errors.Is(err, ErrInvalidElement) && !errors.Is(err, ErrBadLength) {
		t.Fatalf("garbage public key: %v", err)
	}
	messages := inputs(3)
	client := must(NewBLSClient(parsed, nil, 0))
	batch := must(client.Blind(messages))
	sigs, cheaters, err := batch.Finalize(respond(t, shares, batch.Request(), nil, all5, map[uint16]bool{2: true}))
	if err != nil || !reflect.DeepEqual(cheaters, []uint16{2}) {
		t.Fatalf("sign: %v %v", err, cheaters)
	}
	for i, sig := range sigs {
		if len(sig) != BLSSignatureLen {
			t.Fatal("signature length")
		}
		if err := pk.Verify(messages[i], sig); err != nil {
			t.Fatalf("signature %d: %v", i, err)
		}
	}
	if err := pk.Verify([]byte("other"), sigs[0]); !errors.Is(err, ErrVerificationFailed) {
		t.Fatalf("wrong message: %v", err)
	}
	if err := pk.Verify(messages[0], sigs[0][1:]); !errors.Is(err, ErrVerificationFailed) {
		t.Fatalf("malformed signature: %v", err)
	}
	batch = must(client.Blind(messages))
	_, _, err = batch.Finalize(respond(t, shares, batch.Request(), nil, all5, map[uint16]bool{1: true, 3: true, 4: true}))
	var named *CheatingServersError
	if !errors.Is(err, ErrNotEnoughResponses) || !errors.As(err, &named) || !reflect.DeepEqual(named.Servers, []uint16{1, 3, 4}) {
		t.Fatalf("three cheaters: %v", err)
	}
	// With a quorum; a given secret gives the same public key.
	quorum := []uint16{1, 4, 5}
	qClient := must(NewBLSClient(keySet, quorum, 128))
	batch = must(qClient.Blind(messages[:1]))
	sigs, _, err = batch.Finalize(respond(t, shares, batch.Request(), quorum, quorum, nil))
	if err != nil || keySet.PublicKey().Verify(messages[0], sigs[0]) != nil {
		t.Fatalf("quorum: %v", err)
	}
	secret := make([]byte, 32)
	secret[31] = 9
	_, a := dealBLS(t, secret, 1, 2)
	_, c := dealBLS(t, secret, 2, 2)
	if !a.PublicKey().Equal(c.PublicKey()) {
		t.Fatal("a given secret")
	}
	if _, _, err := DealBLS(nil, 0, 2); !errors.Is(err, ErrInvalidThreshold) {
		t.Fatalf("t = 0: %v", err)
	}
	if _, err := NewBLSClient(keySet, []uint16{1}, 0); !errors.Is(err, ErrInvalidPartyID) {
		t.Fatalf("short quorum: %v", err)
	}
	if _, err := NewBLSClient(nil, nil, 0); !errors.Is(err, ErrNullPointer) {
		t.Fatalf("nil key set: %v", err)
	}
	parsed.Close()
	if _, err := client.Blind(messages); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed key set: %v", err)
	}
}

func TestThresholdElGamal(t *testing.T) {
	for _, suite := range []Suite{SuiteRistretto255, SuiteP256, SuiteFFDHE2048} {
		shares, commitments := deal(t, suite, nil, 2, 3)
		pk := commitments.PublicKey()
		var messages, ciphertexts, encaps, secrets [][]byte
		for i := 0; i < 3; i++ {
			m, _, _ := ElGamalEncapsulate(pk) // a fresh element to encrypt
			c := must(ElGamalEncrypt(pk, m))
			e, s, err := ElGamalEncapsulate(pk)
			if err != nil || len(s) != suite.OutputLen() {
				t.Fatal(err)
			}
			messages, ciphertexts = append(messages, m), append(ciphertexts, c)
			encaps, secrets = append(encaps, e), append(secrets, s)
		}
		ids := []uint16{1, 2, 3}
		for _, blinded := range []bool{false, true} {
			client := must(NewElGamalClient(commitments, ElGamalPlaintexts, blinded, nil, 0))
			batch := must(client.Blind(ciphertexts))
			if batch.OutputLen() != suite.ElementLen() {
				t.Fatal("plaintext length")
			}
			got, cheaters, err := batch.Finalize(respond(t, shares, batch.Request(), nil, ids, map[uint16]bool{3: true}))
			if err != nil || !reflect.DeepEqual(got, messages) || !reflect.DeepEqual(cheaters, []uint16{3}) {
				t.Fatalf("%v decrypt: %v %v", suite, err, cheaters)
			}
			kem := must(NewElGamalClient(commitments, ElGamalKEMSecrets, blinded, []uint16{1, 3}, 0))
			batch = must(kem.Blind(encaps))
			got, _, err = batch.Finalize(respond(t, shares, batch.Request(), []uint16{1, 3}, []uint16{1, 3}, nil))
			if err != nil || !reflect.DeepEqual(got, secrets) {
				t.Fatalf("%v decapsulate: %v", suite, err)
			}
		}
		if _, err := ElGamalEncrypt(pk, make([]byte, suite.ElementLen())); !errors.Is(err, ErrInvalidElement) {
			t.Fatalf("identity message: %v", err)
		}
		client := must(NewElGamalClient(commitments, ElGamalPlaintexts, false, nil, 0))
		if _, err := client.Blind(encaps); !errors.Is(err, ErrBadLength) {
			t.Fatalf("encapsulations as ciphertexts: %v", err)
		}
		if _, err := client.Blind(nil); !errors.Is(err, ErrEmptyInput) {
			t.Fatalf("no ciphertext: %v", err)
		}
		for _, s := range shares {
			s.Close()
		}
		commitments.Close()
	}
	if _, err := ElGamalEncrypt(nil, nil); !errors.Is(err, ErrNullPointer) {
		t.Fatalf("nil key: %v", err)
	}
}

// A ciphertext whose plaintext is the identity (c2 = k·c1) fails the whole
// batch with ErrInvalidInput, and the servers already caught are named.
func TestThresholdElGamalIdentityPlaintext(t *testing.T) {
	secret := make([]byte, 32)
	secret[31] = 5
	shares, commitments := deal(t, SuiteP256, secret, 2, 3)
	key := must(NewOPRFServer(SuiteP256, secret)) // raises elements to the shared key
	defer key.Close()
	c1, _, _ := ElGamalEncapsulate(commitments.PublicKey())
	c2, err := key.Evaluate(c1)
	if err != nil {
		t.Fatal(err)
	}
	m, _, _ := ElGamalEncapsulate(commitments.PublicKey())
	valid := must(ElGamalEncrypt(commitments.PublicKey(), m))
	client := must(NewElGamalClient(commitments, ElGamalPlaintexts, true, nil, 0))
	batch := must(client.Blind([][]byte{valid, append(c1, c2...)}))
	_, _, err = batch.Finalize(respond(t, shares, batch.Request(), nil, []uint16{1, 2, 3}, map[uint16]bool{2: true}))
	var named *CheatingServersError
	if !errors.Is(err, ErrInvalidInput) || !errors.As(err, &named) || !reflect.DeepEqual(named.Servers, []uint16{2}) {
		t.Fatalf("identity plaintext: %v", err)
	}
	if _, _, err := batch.Finalize(nil); !errors.Is(err, ErrBatchUsed) {
		t.Fatalf("spent: %v", err)
	}
	if _, err := NewElGamalClient(commitments, ElGamalTarget(9), false, nil, 0); !errors.Is(err, ErrUnknownTarget) {
		t.Fatalf("target: %v", err)
	}
	if _, err := NewElGamalClient(nil, ElGamalPlaintexts, false, nil, 0); !errors.Is(err, ErrNullPointer) {
		t.Fatalf("nil commitments: %v", err)
	}
	if _, err := NewElGamalClient(commitments, ElGamalPlaintexts, false, []uint16{1, 2, 3}, 0); !errors.Is(err, ErrInvalidPartyID) {
		t.Fatalf("long quorum: %v", err)
	}
}
