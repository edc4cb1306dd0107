package oblivex

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

// respond has every server of shares answer request; servers whose id is
// in cheat answer with the next server's share instead.
func respond(t *testing.T, shares []*KeyShare, request []byte, quorum []uint16, ids []uint16, cheat map[uint16]bool) []Response {
	t.Helper()
	var out []Response
	for _, id := range ids {
		share := shares[id-1]
		q := quorum
		if cheat[id] {
			share, q = shares[int(id)%len(shares)], nil
		}
		elements, err := share.Evaluate(request, q)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Response{Party: id, Elements: elements})
	}
	return out
}

var all5 = []uint16{1, 2, 3, 4, 5}

func TestThresholdSharing(t *testing.T) {
	shares, commitments, err := Deal(P256SHA256, nil, 3, 5)
	if err != nil {
		t.Fatal(err)
	}
	defer commitments.Close()
	if commitments.Threshold() != 3 {
		t.Fatal("threshold")
	}
	for i, s := range shares {
		if s.ID() != uint16(i+1) {
			t.Fatalf("id %d", s.ID())
		}
		b, _ := s.Bytes()
		copyShare, err := ParseKeyShare(P256SHA256, b)
		if err != nil {
			t.Fatal(err)
		}
		if err := commitments.VerifyShare(copyShare); err != nil {
			t.Fatal(err)
		}
		b[0], b[1] = 0, byte((i+1)%5+1) // the next party's id
		moved, err := ParseKeyShare(P256SHA256, b)
		if err != nil {
			t.Fatal(err)
		}
		if err := commitments.VerifyShare(moved); !errors.Is(err, ErrVerificationFailed) {
			t.Fatalf("moved share: %v", err)
		}
		moved.Close()
		s.Close()
	}
	cb, _ := commitments.Bytes()
	parsed, err := ParseCommitments(P256SHA256, cb)
	if err != nil || parsed.Threshold() != 3 {
		t.Fatalf("commitments: %v", err)
	}
	if _, err := ParseCommitments(P256SHA256, cb[1:]); !errors.Is(err, ErrBadLength) {
		t.Fatalf("short commitments: %v", err)
	}
	if _, _, err := Deal(P256SHA256, nil, 4, 3); !errors.Is(err, ErrInvalidThreshold) {
		t.Fatalf("t > m: %v", err)
	}
	if _, err := ParseKeyShare(P256SHA256, make([]byte, 34)); !errors.Is(err, ErrInvalidPartyID) {
		t.Fatalf("id 0: %v", err)
	}
}

func TestThresholdOPRF(t *testing.T) {
	secret := make([]byte, 32)
	secret[0] = 7
	shares, commitments, err := Deal(Ristretto255SHA512, secret, 3, 5)
	if err != nil {
		t.Fatal(err)
	}
	single, _ := NewServer(Ristretto255SHA512, ModeOPRF, secret)
	in := inputs(4)
	plain := &Client{Suite: Ristretto255SHA512, Mode: ModeOPRF}
	state, request, _ := plain.Blind(in, nil)
	evaluated, _ := single.Evaluate(request)
	want, _ := plain.Finalize(state, evaluated, nil)

	run := func(ids []uint16, quorum []uint16, cheat map[uint16]bool) ([][]byte, []uint16, error) {
		batch, request, err := ThresholdOPRFBlind(commitments, in, quorum, 0)
		if err != nil {
			t.Fatal(err)
		}
		return batch.Finalize(respond(t, shares, request, quorum, ids, cheat))
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
	if _, _, err := ThresholdOPRFBlind(commitments, in, []uint16{1, 2}, 0); !errors.Is(err, ErrInvalidPartyID) {
		t.Fatalf("short quorum: %v", err)
	}
}

func TestThresholdBLS(t *testing.T) {
	shares, keySet, err := BLSDeal(3, 5)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := keySet.Bytes()
	parsed, err := ParseBLSKeySet(b)
	if err != nil {
		t.Fatal(err)
	}
	copy(b[4+96:4+192], b[4+192:4+288])
	if _, err := ParseBLSKeySet(b); !errors.Is(err, ErrVerificationFailed) {
		t.Fatalf("inconsistent key set: %v", err)
	}
	pk, _ := parsed.PublicKey()
	messages := inputs(3)
	batch, request, err := BLSBlind(parsed, messages, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	sigs, cheaters, err := batch.Finish(respond(t, shares, request, nil, all5, map[uint16]bool{2: true}))
	if err != nil || !reflect.DeepEqual(cheaters, []uint16{2}) {
		t.Fatalf("sign: %v %v", err, cheaters)
	}
	for i, sig := range sigs {
		if err := BLSVerify(pk, messages[i], sig); err != nil {
			t.Fatalf("signature %d: %v", i, err)
		}
	}
	if err := BLSVerify(pk, []byte("other"), sigs[0]); !errors.Is(err, ErrVerificationFailed) {
		t.Fatalf("wrong message: %v", err)
	}
	batch, request, _ = BLSBlind(parsed, messages, nil, 0)
	_, _, err = batch.Finish(respond(t, shares, request, nil, all5, map[uint16]bool{1: true, 3: true, 4: true}))
	if !errors.Is(err, ErrNotEnoughResponses) {
		t.Fatalf("three cheaters: %v", err)
	}
}

func TestThresholdElGamal(t *testing.T) {
	for _, suite := range []Suite{Ristretto255SHA512, P256SHA256, FFDHE2048SHA512} {
		shares, commitments, err := Deal(suite, nil, 2, 3)
		if err != nil {
			t.Fatal(err)
		}
		pk, _ := commitments.PublicKey()
		var messages, ciphertexts, encaps, secrets [][]byte
		for i := 0; i < 3; i++ {
			m, _, _ := ElGamalEncapsulate(suite, pk) // a fresh element to encrypt
			c, err := ElGamalEncrypt(suite, pk, m)
			if err != nil {
				t.Fatal(err)
			}
			e, s, _ := ElGamalEncapsulate(suite, pk)
			messages, ciphertexts = append(messages, m), append(ciphertexts, c)
			encaps, secrets = append(encaps, e), append(secrets, s)
		}
		ids := []uint16{1, 2, 3}
		for _, blinded := range []bool{false, true} {
			batch, request, err := NewDecryption(commitments, ciphertexts, blinded, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			got, cheaters, err := batch.Finish(respond(t, shares, request, nil, ids, map[uint16]bool{3: true}))
			if err != nil || !reflect.DeepEqual(got, messages) || !reflect.DeepEqual(cheaters, []uint16{3}) {
				t.Fatalf("%v decrypt: %v %v", suite, err, cheaters)
			}
			batch, request, _ = NewDecapsulation(commitments, encaps, blinded, nil, 0)
			got, _, err = batch.Finish(respond(t, shares, request, nil, ids, nil))
			if err != nil || !reflect.DeepEqual(got, secrets) {
				t.Fatalf("%v decapsulate: %v", suite, err)
			}
		}
		if _, err := ElGamalEncrypt(suite, pk, make([]byte, suite.ElementLen())); !errors.Is(err, ErrInvalidElement) {
			t.Fatalf("identity message: %v", err)
		}
		if !bytes.Equal(pk, pk) {
			t.Fatal()
		}
	}
}
