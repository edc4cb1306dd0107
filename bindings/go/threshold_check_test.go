package oblivex

import (
	"errors"
	"reflect"
	"testing"
)

// thresholdBatch is what the three threshold batches share for the check
// of one response.
type thresholdBatch interface {
	Request() []byte
	CheckResponse(Response) error
	Finalize([]Response) ([][]byte, []uint16, error)
}

// checkEach checks every response of servers (the cheaters answering
// wrongly) on its own, wants a verdict per server, and finalizes with the
// first t that passed: the outputs of an honest run, nobody named.
func checkEach(t *testing.T, name string, shares []*KeyShare, batch thresholdBatch, threshold int,
	cheat map[uint16]bool, want [][]byte) {
	t.Helper()
	var passed []Response
	for _, r := range respond(t, shares, batch.Request(), nil, all5, cheat) {
		err := batch.CheckResponse(r)
		if cheat[r.Party] != errors.Is(err, ErrVerificationFailed) || (!cheat[r.Party] && err != nil) {
			t.Fatalf("%s: server %d (cheating %v): %v", name, r.Party, cheat[r.Party], err)
		}
		if err == nil && len(passed) < threshold {
			passed = append(passed, r)
		}
	}
	if err := batch.CheckResponse(Response{Party: 0, Elements: batch.Request()}); !errors.Is(err, ErrInvalidPartyID) {
		t.Fatalf("%s: id 0: %v", name, err)
	}
	got, cheaters, err := batch.Finalize(passed)
	if err != nil || !reflect.DeepEqual(got, want) || len(cheaters) != 0 {
		t.Fatalf("%s: finalized with the first %d that passed: %v %v", name, threshold, err, cheaters)
	}
	if err := batch.CheckResponse(passed[0]); !errors.Is(err, ErrBatchUsed) {
		t.Fatalf("%s: after Finalize: %v", name, err)
	}
}

// honestOutputs finalizes batch with every server's honest response.
func honestOutputs(t *testing.T, shares []*KeyShare, batch thresholdBatch) [][]byte {
	t.Helper()
	outputs, _, err := batch.Finalize(respond(t, shares, batch.Request(), nil, all5, nil))
	if err != nil {
		t.Fatal(err)
	}
	return outputs
}

func TestThresholdCheckResponse(t *testing.T) {
	shares, commitments := deal(t, SuiteRistretto255, nil, 3, 5)
	client := must(NewThresholdOPRFClient(commitments, nil, 0))
	in := inputs(3)
	want := honestOutputs(t, shares, must(client.Blind(in)))
	checkEach(t, "OPRF", shares, must(client.Blind(in)), 3, map[uint16]bool{1: true, 4: true}, want)
	// Truncated and garbled answers are the server's fault, not errors.
	b := must(client.Blind(in))
	if err := b.CheckResponse(Response{Party: 2, Elements: b.Request()[1:]}); !errors.Is(err, ErrVerificationFailed) {
		t.Fatalf("short answer: %v", err)
	}
	if err := b.CheckResponse(Response{Party: 2, Elements: make([]byte, len(b.Request()))}); !errors.Is(err, ErrVerificationFailed) {
		t.Fatalf("answer of identities: %v", err)
	}
	b.Close()
	if err := b.CheckResponse(Response{Party: 2, Elements: b.Request()}); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed: %v", err)
	}
	// With a named quorum, a server outside it is the caller's mistake.
	quorum := []uint16{1, 2, 3}
	qb := must(must(NewThresholdOPRFClient(commitments, quorum, 0)).Blind(in))
	for _, r := range respond(t, shares, qb.Request(), quorum, quorum, nil) {
		if err := qb.CheckResponse(r); err != nil {
			t.Fatalf("quorum server %d: %v", r.Party, err)
		}
	}
	outsider := respond(t, shares, qb.Request(), nil, []uint16{4}, nil)[0]
	if err := qb.CheckResponse(outsider); !errors.Is(err, ErrInvalidPartyID) {
		t.Fatalf("outside the quorum: %v", err)
	}

	blsShares, keySet := dealBLS(t, nil, 3, 5)
	blsClient := must(NewBLSClient(keySet, nil, 0))
	messages := inputs(2)
	signatures := honestOutputs(t, blsShares, must(blsClient.Blind(messages)))
	checkEach(t, "BLS", blsShares, must(blsClient.Blind(messages)), 3, map[uint16]bool{5: true}, signatures)

	pk := commitments.PublicKey()
	var encaps, secrets [][]byte
	for i := 0; i < 2; i++ {
		e, s, err := ElGamalEncapsulate(pk)
		if err != nil {
			t.Fatal(err)
		}
		encaps, secrets = append(encaps, e), append(secrets, s)
	}
	kem := must(NewElGamalClient(commitments, ElGamalKEMSecrets, true, nil, 0))
	checkEach(t, "ElGamal", shares, must(kem.Blind(encaps)), 3, map[uint16]bool{2: true, 3: true}, secrets)
}
