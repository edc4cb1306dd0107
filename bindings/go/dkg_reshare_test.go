package oblivex

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

// everyoneOf is what a party of the other set receives of broadcasts:
// every sender's, its own id no exception (old and new parties are
// numbered apart).
func everyoneOf(step dkgStep, to uint16, broadcasts map[uint16][]byte, tamper dkgTamper) []DKGMessage {
	var out []DKGMessage
	for from := uint16(1); int(from) <= len(broadcasts); from++ {
		out = append(out, DKGMessage{From: from, Bytes: tamper(step, from, to, append([]byte(nil), broadcasts[from]...))})
	}
	return out
}

// runReshare has old parties 1..len(shares) (each starting from its share
// and its commitments) reshare to threshold-of-parties new parties, which
// start from commitments[0]; errs[i] is new party i+1's Finalize error,
// dealerErrs[j] old party j+1's Round3 error (it then sends nothing more).
func runReshare(t *testing.T, shares []*KeyShare, commitments []*Commitments, threshold, parties int,
	session []byte, tamper dkgTamper) (outputs []*DKGOutput, errs, dealerErrs []error) {
	t.Helper()
	oldParties := len(shares)
	dealers := make([]*ReshareDealerRound1, oldParties)
	dealt := map[uint16][]byte{}
	for i := range dealers {
		dealers[i] = must(StartReshareDealer(shares[i], commitments[i], oldParties, threshold, parties, session))
		dealt[uint16(i+1)] = dealers[i].Broadcast
	}
	// Round 2: each new party takes every old party's commitments and the
	// pair it was dealt.
	complaints := map[uint16][]byte{}
	round2 := make([]*ReshareReceiverRound2, parties)
	for i := range round2 {
		to := uint16(i + 1)
		start := must(StartReshareReceiver(commitments[0], oldParties, threshold, parties, session, to))
		var pairs []DKGMessage
		for j, d := range dealers {
			if d.Shares[i].To != to {
				t.Fatalf("old party %d's pair %d is for %d", j+1, i, d.Shares[i].To)
			}
			pairs = append(pairs, DKGMessage{From: uint16(j + 1), Bytes: tamper(stepSharePair, uint16(j+1), to, append([]byte(nil), d.Shares[i].Bytes...))})
		}
		round2[i] = must(start.Round2(everyoneOf(stepCommitments, to, dealt, tamper), pairs))
		complaints[to] = round2[i].Broadcast
	}
	// Rounds 3 and 4: the old parties answer every complaint, then
	// publish their Feldman commitments; the new parties fix QUAL.
	justifications, feldman := map[uint16][]byte{}, map[uint16][]byte{}
	dealerErrs = make([]error, oldParties)
	for j, d := range dealers {
		next, err := d.Round3(everyoneOf(stepComplaints, uint16(j+1), complaints, tamper))
		if dealerErrs[j] = err; err != nil {
			continue
		}
		justifications[uint16(j+1)] = next.Broadcast
		feldman[uint16(j+1)] = must(next.Round4())
	}
	round5 := make([]*DKGRound5, parties)
	broadcasts := map[uint16][]byte{}
	for i, r := range round2 {
		to := uint16(i + 1)
		round3 := must(r.Round3(inboxOf(stepComplaints, to, complaints, tamper)))
		round4 := must(round3.Round4(everyoneOf(stepJustifications, to, justifications, tamper)))
		if len(round3.Broadcast) != 0 || len(round4.Broadcast) != 0 {
			t.Fatalf("new party %d sent something in round 3 or 4", to)
		}
		round5[i] = must(round4.Round5(everyoneOf(stepFeldman, to, feldman, tamper)))
		broadcasts[to] = round5[i].Broadcast
	}
	outputs, errs = finishDKG(t, round5, broadcasts, tamper)
	return outputs, errs, dealerErrs
}

func sharesOf(outputs []*DKGOutput) ([]*KeyShare, []*Commitments) {
	shares := make([]*KeyShare, len(outputs))
	commitments := make([]*Commitments, len(outputs))
	for i, o := range outputs {
		shares[i], commitments[i] = o.Share, o.Commitments
	}
	return shares, commitments
}

func TestDKGReshareKeepsTheKey(t *testing.T) {
	outputs, errs := runDKG(t, startAll(t, SuiteRistretto255, 3, 5, bytes.Repeat([]byte{0x41}, DKGSessionIDLen)), honestNetwork)
	expectAgreement(t, outputs, errs, all5, all5, nil)
	in := inputs(2)
	want := thresholdOutputs(t, outputs, in)

	shares, commitments := sharesOf(outputs)
	reshared, errs, dealerErrs := runReshare(t, shares, commitments, 2, 3, bytes.Repeat([]byte{0x42}, DKGSessionIDLen), honestNetwork)
	for j, err := range dealerErrs {
		if err != nil {
			t.Fatalf("old party %d: %v", j+1, err)
		}
	}
	expectAgreement(t, reshared, errs, []uint16{1, 2, 3}, all5, nil)
	if reshared[0].Commitments.Threshold() != 2 || !reshared[0].Commitments.PublicKey().Equal(outputs[0].Commitments.PublicKey()) {
		t.Fatal("the resharing's commitments: another threshold or public key")
	}
	if err := reshared[0].Commitments.VerifyShare(outputs[0].Share); !errors.Is(err, ErrVerificationFailed) {
		t.Fatalf("an old share against the new commitments: %v", err)
	}
	if got := thresholdOutputs(t, reshared, in); !reflect.DeepEqual(got, want) {
		t.Fatal("reshared shares give other outputs")
	}
}

func TestDKGReshareOldPartyDealingAnotherKeyIsNamed(t *testing.T) {
	outputs, errs := runDKG(t, startAll(t, SuiteRistretto255, 3, 5, bytes.Repeat([]byte{0x43}, DKGSessionIDLen)), honestNetwork)
	expectAgreement(t, outputs, errs, all5, all5, nil)
	in := inputs(2)
	want := thresholdOutputs(t, outputs, in)
	// Old party 5 deals its share of another key (valid for that key's
	// commitments, so it starts) instead of its own: its messages name
	// other old commitments, so the new parties disqualify it, and it
	// learns of the mismatch from their complaints.
	shares, commitments := sharesOf(outputs)
	otherShares, other := deal(t, SuiteRistretto255, nil, 3, 5)
	shares[4], commitments[4] = otherShares[4], other
	reshared, errs, dealerErrs := runReshare(t, shares, commitments, 2, 3, bytes.Repeat([]byte{0x44}, DKGSessionIDLen), honestNetwork)
	if !errors.Is(dealerErrs[4], ErrOldCommitmentsMismatch) {
		t.Fatalf("old party 5, started from other commitments: %v", dealerErrs[4])
	}
	blame := []DKGBlame{
		{Party: 5, Offence: DKGBroadcastInvalid, Detail: 1, Err: ErrOldCommitmentsMismatch},
		{Party: 5, Offence: DKGBroadcastMissing, Detail: 3}, // its justifications never come
	}
	expectAgreement(t, reshared, errs, []uint16{1, 2, 3}, []uint16{1, 2, 3, 4}, blame)
	if got := thresholdOutputs(t, reshared, in); !reflect.DeepEqual(got, want) {
		t.Fatal("the key did not stay")
	}
}

func TestDKGReshareBadCalls(t *testing.T) {
	session := make([]byte, DKGSessionIDLen)
	shares, commitments := deal(t, SuiteRistretto255, nil, 3, 5)
	_, other := deal(t, SuiteRistretto255, nil, 3, 5)
	if _, err := StartReshareDealer(shares[0], other, 5, 2, 3, session); !errors.Is(err, ErrShareMismatch) {
		t.Fatalf("a share of another key: %v", err)
	}
	if _, err := StartReshareDealer(shares[0], commitments, 4, 2, 3, session); !errors.Is(err, ErrInvalidThreshold) {
		t.Fatalf("old n < 2t-1: %v", err)
	}
	if _, err := StartReshareDealer(shares[0], commitments, 5, 2, 3, session[1:]); !errors.Is(err, ErrBadLength) {
		t.Fatalf("session length: %v", err)
	}
	if _, err := StartReshareReceiver(commitments, 5, 2, 3, session, 4); !errors.Is(err, ErrInvalidPartyID) {
		t.Fatalf("id above the new n: %v", err)
	}
	if _, err := StartReshareReceiver(nil, 5, 2, 3, session, 1); !errors.Is(err, ErrNullPointer) {
		t.Fatalf("no commitments: %v", err)
	}
	dealer := must(StartReshareDealer(shares[1], commitments, 5, 2, 3, session))
	if len(dealer.Shares) != 3 || dealer.Shares[1].To != 2 {
		t.Fatal("one share pair per new party, its own id included")
	}
	next := must(dealer.Round3(nil))
	if _, err := dealer.Round3(nil); !errors.Is(err, ErrWrongRound) {
		t.Fatalf("a round value used twice: %v", err)
	}
	if feldman := must(next.Round4()); len(feldman) == 0 {
		t.Fatal("no Feldman commitments")
	}
	if _, err := next.Round4(); !errors.Is(err, ErrClosed) {
		t.Fatalf("an old party is released after round 4: %v", err)
	}
	receiver := must(StartReshareReceiver(commitments, 5, 2, 3, session, 2))
	defer receiver.Close()
	if _, err := receiver.Round2([]DKGMessage{{From: 6, Bytes: []byte{1}}}, nil); !errors.Is(err, ErrInvalidPartyID) {
		t.Fatalf("old sender 6 of 5: %v", err)
	}
	round2 := must(receiver.Round2([]DKGMessage{{From: 2}}, nil)) // old party 2 is another party
	if _, err := round2.Round3([]DKGMessage{{From: 2, Bytes: []byte{1}}}); !errors.Is(err, ErrDuplicateMessage) {
		t.Fatalf("new party 2's own complaints: %v", err)
	}
	round3 := must(round2.Round3(nil))
	if _, err := round3.Round4(nil); !errors.Is(err, ErrNoQualifiedParty) {
		t.Fatalf("every old party silent: %v", err)
	}
}
