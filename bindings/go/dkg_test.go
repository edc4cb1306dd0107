package oblivex

import (
	"bytes"
	"errors"
	"math/big"
	"reflect"
	"testing"
)

// dkgStep names the messages of a DKG step, for tampering.
type dkgStep int

const (
	stepCommitments dkgStep = iota
	stepSharePair
	stepComplaints
	stepJustifications
	stepFeldman
	stepFeldmanComplaints
	stepReveals
)

// dkgTamper changes the copy of a message from -> to (nil drops it).
type dkgTamper func(step dkgStep, from, to uint16, message []byte) []byte

func honestNetwork(_ dkgStep, _, _ uint16, message []byte) []byte { return message }

// inboxOf is what party `to` receives of everyone's broadcasts.
func inboxOf(step dkgStep, to uint16, broadcasts map[uint16][]byte, tamper dkgTamper) []DKGMessage {
	var out []DKGMessage
	for from := uint16(1); int(from) <= len(broadcasts); from++ {
		if from != to {
			copied := tamper(step, from, to, append([]byte(nil), broadcasts[from]...))
			out = append(out, DKGMessage{From: from, Bytes: copied})
		}
	}
	return out
}

// stepAll runs one broadcast round at every party on the others' last
// broadcasts, then records each party's new one.
func stepAll[S, N any](t *testing.T, step dkgStep, states []S, broadcasts map[uint16][]byte, tamper dkgTamper,
	next func(S, []DKGMessage) (N, error), sent func(N) []byte) []N {
	t.Helper()
	out := make([]N, len(states))
	for i, state := range states {
		out[i] = must(next(state, inboxOf(step, uint16(i+1), broadcasts, tamper)))
	}
	for i, n := range out {
		broadcasts[uint16(i+1)] = sent(n)
	}
	return out
}

// runDKG runs started parties to the end; errs[i] is party i+1's
// Finalize error.
func runDKG(t *testing.T, starts []*DKGRound1, tamper dkgTamper) ([]*DKGOutput, []error) {
	t.Helper()
	broadcasts := map[uint16][]byte{}
	round2 := runRound2(t, starts, broadcasts, tamper)
	round3 := stepAll(t, stepComplaints, round2, broadcasts, tamper, (*DKGRound2).Round3, func(r *DKGRound3) []byte { return r.Broadcast })
	round4 := stepAll(t, stepJustifications, round3, broadcasts, tamper, (*DKGRound3).Round4, func(r *DKGRound4) []byte { return r.Broadcast })
	round5 := stepAll(t, stepFeldman, round4, broadcasts, tamper, (*DKGRound4).Round5, func(r *DKGRound5) []byte { return r.Broadcast })
	return finishDKG(t, round5, broadcasts, tamper)
}

// runRound2 runs round 2 at every started party (on the others'
// broadcasts and the share pairs sent to it) and records each party's
// round-1 broadcast, then its round-2 one, in broadcasts.
func runRound2(t *testing.T, starts []*DKGRound1, broadcasts map[uint16][]byte, tamper dkgTamper) []*DKGRound2 {
	t.Helper()
	for i, s := range starts {
		broadcasts[uint16(i+1)] = s.Broadcast
	}
	// Round 2 takes the private share pairs too.
	return stepAll(t, stepCommitments, starts, broadcasts, tamper, func(s *DKGRound1, commitments []DKGMessage) (*DKGRound2, error) {
		var pairs []DKGMessage
		for j, other := range starts {
			for _, pair := range other.Shares {
				if pair.To == s.party.id {
					from := uint16(j + 1)
					pairs = append(pairs, DKGMessage{From: from, Bytes: tamper(stepSharePair, from, pair.To, append([]byte(nil), pair.Bytes...))})
				}
			}
		}
		return s.Round2(commitments, pairs)
	}, func(r *DKGRound2) []byte { return r.Broadcast })
}

// finishDKG runs the parties after round 5 (broadcasts are their Feldman
// complaints) to the end; errs[i] is party i+1's Finalize error.
func finishDKG(t *testing.T, round5 []*DKGRound5, broadcasts map[uint16][]byte, tamper dkgTamper) ([]*DKGOutput, []error) {
	t.Helper()
	round6 := stepAll(t, stepFeldmanComplaints, round5, broadcasts, tamper, (*DKGRound5).Round6, func(r *DKGRound6) []byte { return r.Broadcast })
	outputs := make([]*DKGOutput, len(round6))
	errs := make([]error, len(round6))
	for i, r := range round6 {
		outputs[i], errs[i] = r.Finalize(inboxOf(stepReveals, uint16(i+1), broadcasts, tamper))
	}
	return outputs, errs
}

func startAll(t *testing.T, suite Suite, threshold, parties int, session []byte) []*DKGRound1 {
	t.Helper()
	starts := make([]*DKGRound1, parties)
	for i := range starts {
		starts[i] = must(StartDKG(suite, threshold, parties, session, uint16(i+1)))
	}
	return starts
}

// expectAgreement checks that the parties `who` finalized with the same
// commitments, QUAL and blame list, and shares that match.
func expectAgreement(t *testing.T, outputs []*DKGOutput, errs []error, who []uint16, qualified []uint16, blame []DKGBlame) {
	t.Helper()
	var first []byte
	for _, id := range who {
		out, err := outputs[id-1], errs[id-1]
		if err != nil {
			t.Fatalf("party %d: %v", id, err)
		}
		if out.Share.ID() != id || out.Commitments.VerifyShare(out.Share) != nil {
			t.Fatalf("party %d: share", id)
		}
		b := must(out.Commitments.Bytes())
		if first == nil {
			first = b
		}
		if !bytes.Equal(b, first) || !reflect.DeepEqual(out.Qualified, qualified) || !reflect.DeepEqual(out.Blame, blame) {
			t.Fatalf("party %d: commitments, QUAL %v or blame %v differ", id, out.Qualified, out.Blame)
		}
	}
}

// ristrettoOrder is the order of the ristretto255 group.
var ristrettoOrder, _ = new(big.Int).SetString("1000000000000000000000000000000014def9dea2f79cd65812631a5cf5d3ed", 16)

// reconstructKey is the key shares 1, 2 and 3 of a ristretto255 sharing
// reconstruct (Lagrange at 0: 3, -3, 1; little-endian scalars): the
// test's privilege, no party's.
func reconstructKey(t *testing.T, shares []*KeyShare) []byte {
	t.Helper()
	key := new(big.Int)
	for i, lambda := range []int64{3, -3, 1} {
		b := must(shares[i].Bytes())
		scalar := make([]byte, 32)
		for j := range scalar {
			scalar[j] = b[2+31-j] // to big-endian
		}
		wipe(b)
		key.Add(key, new(big.Int).Mul(big.NewInt(lambda), new(big.Int).SetBytes(scalar)))
		wipe(scalar)
	}
	key.Mod(key, ristrettoOrder)
	out := make([]byte, 32)
	for j, v := range key.FillBytes(make([]byte, 32)) {
		out[31-j] = v
	}
	return out
}

// thresholdOutputs are the threshold OPRF outputs of in with every share.
func thresholdOutputs(t *testing.T, outputs []*DKGOutput, in [][]byte) [][]byte {
	t.Helper()
	shares := make([]*KeyShare, len(outputs))
	ids := make([]uint16, len(outputs))
	for i, o := range outputs {
		shares[i], ids[i] = o.Share, o.Share.ID()
	}
	client := must(NewThresholdOPRFClient(outputs[0].Commitments, nil, 0))
	batch := must(client.Blind(in))
	got, cheaters, err := batch.Finalize(respond(t, shares, batch.Request(), nil, ids, nil))
	if err != nil || len(cheaters) != 0 {
		t.Fatalf("threshold OPRF: %v %v", err, cheaters)
	}
	return got
}

func TestDKGHonestRunFeedsTheThresholdOPRF(t *testing.T) {
	session := bytes.Repeat([]byte{0x31}, DKGSessionIDLen)
	outputs, errs := runDKG(t, startAll(t, SuiteRistretto255, 3, 5, session), honestNetwork)
	expectAgreement(t, outputs, errs, all5, all5, nil)

	shares := []*KeyShare{outputs[0].Share, outputs[1].Share, outputs[2].Share}
	key := reconstructKey(t, shares)
	single := must(NewOPRFServer(SuiteRistretto255, key))
	wipe(key)
	if !single.PublicKey().Equal(outputs[0].Commitments.PublicKey()) {
		t.Fatal("the reconstructed key is not the DKG's public key's")
	}
	in := inputs(3)
	plain := must(NewOPRFClient(SuiteRistretto255))
	batch := must(plain.Blind(in))
	evaluated, _ := single.Evaluate(batch.Request())
	want := must(batch.Finalize(evaluated))
	if got := thresholdOutputs(t, outputs, in); !reflect.DeepEqual(got, want) {
		t.Fatal("threshold OPRF on the DKG's output differs from the single-key OPRF")
	}

	// A refresh: the same public key and outputs, new shares.
	session2 := bytes.Repeat([]byte{0x32}, DKGSessionIDLen)
	starts := make([]*DKGRound1, 5)
	for i, o := range outputs {
		starts[i] = must(StartRefresh(o.Share, o.Commitments, 5, session2))
	}
	refreshed, errs := runDKG(t, starts, honestNetwork)
	expectAgreement(t, refreshed, errs, all5, all5, nil)
	if !refreshed[0].Commitments.PublicKey().Equal(outputs[0].Commitments.PublicKey()) {
		t.Fatal("refresh changed the public key")
	}
	if err := refreshed[0].Commitments.VerifyShare(outputs[0].Share); !errors.Is(err, ErrVerificationFailed) {
		t.Fatalf("an old share against the new commitments: %v", err)
	}
	if got := thresholdOutputs(t, refreshed, in); !reflect.DeepEqual(got, want) {
		t.Fatal("refreshed shares give other outputs")
	}
}

func TestDKGWrongJustificationIsNamed(t *testing.T) {
	// Party 2 sends party 1 a bad share, then answers party 1's complaint
	// with a wrong pair: every honest party disqualifies it.
	flipShare := func(step dkgStep, from, to uint16, message []byte) []byte {
		if from == 2 && ((step == stepSharePair && to == 1) || step == stepJustifications) {
			message[len(message)-64] ^= 1 // the share's low byte
		}
		return message
	}
	session := bytes.Repeat([]byte{0x33}, DKGSessionIDLen)
	outputs, errs := runDKG(t, startAll(t, SuiteRistretto255, 3, 5, session), flipShare)
	blame := []DKGBlame{{Party: 2, Offence: DKGWrongJustification, Detail: 1}}
	expectAgreement(t, outputs, errs, []uint16{1, 3, 4, 5}, []uint16{1, 3, 4, 5}, blame)
}

func TestDKGBadCalls(t *testing.T) {
	session := make([]byte, DKGSessionIDLen)
	if _, err := StartDKG(SuiteRistretto255, 3, 4, session, 1); !errors.Is(err, ErrInvalidThreshold) {
		t.Fatalf("n < 2t-1: %v", err)
	}
	if _, err := StartDKG(SuiteRistretto255, 3, 5, session[1:], 1); !errors.Is(err, ErrBadLength) {
		t.Fatalf("session length: %v", err)
	}
	if _, err := StartDKG(SuiteRistretto255, 3, 5, session, 6); !errors.Is(err, ErrInvalidPartyID) {
		t.Fatalf("id above n: %v", err)
	}
	if _, err := StartDKG(Suite(99), 3, 5, session, 1); !errors.Is(err, ErrUnknownSuite) {
		t.Fatalf("suite: %v", err)
	}
	start := must(StartDKG(SuiteRistretto255, 3, 5, session, 1))
	defer start.Close()
	if len(start.Shares) != 4 || start.Shares[0].To != 2 {
		t.Fatal("one share pair per other party")
	}
	twice := []DKGMessage{{From: 2}, {From: 2}}
	if _, err := start.Round2(twice, nil); !errors.Is(err, ErrDuplicateMessage) {
		t.Fatalf("two messages from one sender: %v", err)
	}
	if _, err := start.Round2([]DKGMessage{{From: 9, Bytes: []byte{1}}}, nil); !errors.Is(err, ErrInvalidPartyID) {
		t.Fatalf("a sender outside the run: %v", err)
	}
	// Alone: the other dealers are disqualified; the value is spent.
	next := must(start.Round2(nil, nil))
	if len(next.Broadcast) == 0 {
		t.Fatal("complaints are always sent")
	}
	if _, err := start.Round2(nil, nil); !errors.Is(err, ErrWrongRound) {
		t.Fatalf("a round value used twice: %v", err)
	}
	shares, commitments := deal(t, SuiteRistretto255, nil, 3, 5)
	_, other := deal(t, SuiteRistretto255, nil, 3, 5)
	if _, err := StartRefresh(shares[0], other, 5, session); !errors.Is(err, ErrShareMismatch) {
		t.Fatalf("a share of another key: %v", err)
	}
	if _, err := StartRefresh(shares[0], commitments, 5, nil); !errors.Is(err, ErrBadLength) {
		t.Fatalf("no session: %v", err)
	}
	// A party started from another sharing than the others (here one of
	// another key): t messages naming other old commitments are its own
	// mismatch, not t dealers to blame.
	otherShares, otherCommitments := deal(t, SuiteRistretto255, nil, 3, 5)
	stale := must(StartRefresh(shares[0], commitments, 5, session))
	defer stale.Close()
	var broadcasts, pairs []DKGMessage
	for _, share := range otherShares[1:4] {
		dealer := must(StartRefresh(share, otherCommitments, 5, session))
		defer dealer.Close()
		broadcasts = append(broadcasts, DKGMessage{From: share.ID(), Bytes: dealer.Broadcast})
		for _, pair := range dealer.Shares {
			if pair.To == 1 {
				pairs = append(pairs, DKGMessage{From: share.ID(), Bytes: pair.Bytes})
			}
		}
	}
	if _, err := stale.Round2(broadcasts, pairs); !errors.Is(err, ErrOldCommitmentsMismatch) {
		t.Fatalf("t dealers of another sharing: %v", err)
	}
}

// TestDKGBLSKeySetFromSignerKeys builds a BLS key set after a DKG from the
// signers' published G2 keys (no key reconstructed), signs with it, and
// names a signer whose key is wrong.
func TestDKGBLSKeySetFromSignerKeys(t *testing.T) {
	session := bytes.Repeat([]byte{0x33}, DKGSessionIDLen)
	outputs, errs := runDKG(t, startAll(t, SuiteBLS12381G1, 3, 5, session), honestNetwork)
	expectAgreement(t, outputs, errs, all5, all5, nil)
	published := make([]Response, len(outputs))
	for i, o := range outputs {
		published[i] = Response{Party: o.Share.ID(), Elements: must(o.Share.BLSSignerKey()).Bytes()}
	}
	keySet, cheaters, err := DeriveBLSKeySet(outputs[0].Commitments, 5, published)
	if err != nil || len(cheaters) != 0 {
		t.Fatalf("derive: %v %v", err, cheaters)
	}
	shares := make([]*KeyShare, len(outputs))
	for i, o := range outputs {
		shares[i] = o.Share
	}
	client := must(NewBLSClient(keySet, nil, 0))
	batch := must(client.Blind([][]byte{[]byte("dkg")}))
	signatures, _, err := batch.Finalize(respond(t, shares, batch.Request(), nil, all5, nil))
	if err != nil || keySet.PublicKey().Verify([]byte("dkg"), signatures[0]) != nil {
		t.Fatalf("a signature under the derived key set: %v", err)
	}

	// Party 2 publishes party 1's key: named, and the key set is the same.
	wrong := append([]Response(nil), published...)
	wrong[1].Elements = published[0].Elements
	again, cheaters, err := DeriveBLSKeySet(outputs[0].Commitments, 5, wrong)
	if err != nil || !reflect.DeepEqual(cheaters, []uint16{2}) || !again.PublicKey().Equal(keySet.PublicKey()) {
		t.Fatalf("a wrong key: %v %v", err, cheaters)
	}
	var cheating *CheatingServersError
	_, _, err = DeriveBLSKeySet(outputs[0].Commitments, 5, wrong[:3])
	if !errors.As(err, &cheating) || !errors.Is(err, ErrNotEnoughResponses) || !reflect.DeepEqual(cheating.Servers, []uint16{2}) {
		t.Fatalf("two right keys of t = 3: %v", err)
	}
	if _, _, err := DeriveBLSKeySet(outputs[0].Commitments, 5, append(wrong, Response{Party: 6, Elements: published[0].Elements})); !errors.Is(err, ErrInvalidPartyID) {
		t.Fatalf("an id above m: %v", err)
	}
	other, commitments, err := Deal(SuiteRistretto255, nil, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other[0].BLSSignerKey(); !errors.Is(err, ErrSuiteMismatch) {
		t.Fatalf("a ristretto255 share's G2 key: %v", err)
	}
	if _, _, err := DeriveBLSKeySet(commitments, 3, nil); !errors.Is(err, ErrSuiteMismatch) {
		t.Fatalf("ristretto255 commitments: %v", err)
	}
}
