package oblivex

// #include <stdlib.h>
// #include <oblivex.h>
import "C"

import (
	"runtime"
	"unsafe"
)

// DKGSessionIDLen is the length of a DKG run's session id: bytes the
// parties choose together and never reuse.
const DKGSessionIDLen = int(C.OBLIVEX_DKG_SESSION_ID_LEN)

// DKGMessage is one DKG message as the transport delivered it: the sender
// the transport authenticated, and the bytes. An empty Bytes is a message
// that did not arrive (the same as leaving it out).
type DKGMessage struct {
	// From is the authenticated sender's party id.
	From uint16
	// Bytes is the encoded message.
	Bytes []byte
}

// DKGSharePair is one of a party's round-1 private messages: its share
// pair for party To. Secret: send it to To only, over an authenticated and
// encrypted channel, and wipe it after.
type DKGSharePair struct {
	// To is the recipient's party id.
	To uint16
	// Bytes is the encoded pair.
	Bytes []byte
}

// dkgParty owns the C party that the round values of one run share.
// Each step moves it on, so a round value used twice finds it at another
// round (ErrWrongRound). Every use of the party is exclusive: each step
// rewrites its state in place, so two at once (two goroutines stepping
// one round value) would both change it; one after the other, the second
// gets ErrWrongRound.
type dkgParty struct {
	suite Suite
	id    uint16
	// parties is the number of parties that end with a share (n′ in a
	// resharing), dealers the number that deal (the old n in a
	// resharing; else parties).
	parties, dealers int
	res              resource[*C.struct_oblivex_dkg_party]
}

func newDKGParty(suite Suite, id uint16, parties, dealers int, p *C.struct_oblivex_dkg_party) *dkgParty {
	party := &dkgParty{suite: suite, id: id, parties: parties, dealers: dealers}
	party.res.init(p, func(p *C.struct_oblivex_dkg_party) { C.oblivex_dkg_party_free(p) })
	runtime.SetFinalizer(party, (*dkgParty).close)
	return party
}

func (d *dkgParty) close() error { return d.res.close() }

// broadcast is the party's current broadcast (nil after a step that sends
// nothing: a resharing's new party at its start and in rounds 3 and 4).
func (d *dkgParty) broadcast(p *C.struct_oblivex_dkg_party) ([]byte, error) {
	length := int(C.oblivex_dkg_party_broadcast_len(p))
	if length == 0 {
		return nil, nil
	}
	out := newOut(length)
	if err := check(C.oblivex_dkg_party_broadcast(p, out.ptr(), out.capacity(), &out.written)); err != nil {
		return nil, err
	}
	return out.bytes(), nil
}

// step runs one round on the party and returns its new broadcast. A round
// that failed the run (the party is spent) releases the party.
func (d *dkgParty) step(f func(*C.struct_oblivex_dkg_party) C.oblivex_status) ([]byte, error) {
	var broadcast []byte
	err := d.res.exclusive(func(p *C.struct_oblivex_dkg_party) error {
		if err := check(f(p)); err != nil {
			return err
		}
		var err error
		broadcast, err = d.broadcast(p)
		return err
	})
	d.releaseIfSpent()
	return broadcast, err
}

// releaseIfSpent frees the party once its run failed.
func (d *dkgParty) releaseIfSpent() {
	spent := false
	_ = d.res.exclusive(func(p *C.struct_oblivex_dkg_party) error {
		spent = C.oblivex_dkg_party_round(p) == 0
		return nil
	})
	if spent {
		d.close()
	}
}

// dkgInbox is one round's messages as the C step takes them: party ids
// and, by sender, one or two byte strings (round 1's broadcast and share
// pair). Messages of one kind from one sender twice are refused
// (ErrDuplicateMessage), as the library does; the library refuses one
// from this party (in a resharing, old and new parties are numbered
// apart: an old party's id may be a new party's).
type dkgInbox struct {
	ids   []uint16
	lists [][][]byte
}

func newDKGInbox(kinds ...[]DKGMessage) (*dkgInbox, error) {
	in := &dkgInbox{lists: make([][][]byte, len(kinds))}
	slot := map[uint16]int{}
	for k, messages := range kinds {
		seen := map[uint16]bool{}
		for _, m := range messages {
			if seen[m.From] {
				return nil, ErrDuplicateMessage
			}
			seen[m.From] = true
			i, ok := slot[m.From]
			if !ok {
				i = len(in.ids)
				slot[m.From] = i
				in.ids = append(in.ids, m.From)
				for j := range in.lists {
					in.lists[j] = append(in.lists[j], nil)
				}
			}
			in.lists[k][i] = m.Bytes
		}
	}
	return in, nil
}

// DKGRound1 is a party after its start, waiting for every other party's
// round-1 messages: it sends Broadcast to every other party (over the
// broadcast channel, docs/PROTOCOLS.md §10) and each of Shares to its
// recipient only. Use it once (Round2); Close wipes the party.
type DKGRound1 struct {
	party *dkgParty
	// Broadcast is the party's Pedersen commitments.
	Broadcast []byte
	// Shares are the private share pairs, one per other party.
	Shares []DKGSharePair
}

// StartDKG starts party id (1..parties) of a new threshold-of-parties key
// of suite (1 <= threshold, 2 <= parties <= MaxParties, parties >=
// 2*threshold-1) in the run named by session (DKGSessionIDLen bytes):
// ErrUnknownSuite, ErrBadLength (session), ErrInvalidThreshold,
// ErrInvalidPartyID.
func StartDKG(suite Suite, threshold, parties int, session []byte, id uint16) (*DKGRound1, error) {
	var p *C.struct_oblivex_dkg_party
	if err := check(C.oblivex_dkg_party_new(C.oblivex_suite(suite), size(threshold), size(parties), in(session),
		size(len(session)), C.uint16_t(id), &p)); err != nil {
		return nil, err
	}
	return started(newDKGParty(suite, id, parties, parties, p))
}

// StartRefresh starts the holder of share in a refresh of the key that
// commitments commit to (their threshold, at least 2; parties as in
// StartDKG): at the end it has a new share of the same key and new
// commitments with the same public key, and old shares stop combining
// with new ones. Every party starts from the same commitments.
// ErrSuiteMismatch, ErrBadLength (session), ErrInvalidThreshold,
// ErrInvalidPartyID, ErrShareMismatch (the share fails the commitments).
func StartRefresh(share *KeyShare, commitments *Commitments, parties int, session []byte) (*DKGRound1, error) {
	if share == nil || commitments == nil {
		return nil, ErrNullPointer
	}
	var p *C.struct_oblivex_dkg_party
	err := share.res.use(func(sp *C.struct_oblivex_key_share) error {
		return commitments.res.use(func(cp *C.struct_oblivex_commitments) error {
			return check(C.oblivex_dkg_refresh_new(sp, cp, size(parties), in(session), size(len(session)), &p))
		})
	})
	if err != nil {
		return nil, err
	}
	return started(newDKGParty(share.suite, share.id, parties, parties, p))
}

// started reads a new party's round-1 messages.
func started(party *dkgParty) (*DKGRound1, error) {
	broadcast, shares, err := party.dealt(true)
	if err != nil {
		return nil, err
	}
	return &DKGRound1{party: party, Broadcast: broadcast, Shares: shares}, nil
}

// dealt reads a dealer's round-1 messages: its broadcast, and a share pair
// for each party 1..parties (but itself when skipOwn: in a key generation
// or refresh it deals to itself in no message). The party is released on
// an error.
func (d *dkgParty) dealt(skipOwn bool) ([]byte, []DKGSharePair, error) {
	var broadcast []byte
	var shares []DKGSharePair
	err := d.res.exclusive(func(p *C.struct_oblivex_dkg_party) error {
		var err error
		if broadcast, err = d.broadcast(p); err != nil {
			return err
		}
		for to := 1; to <= d.parties; to++ {
			if skipOwn && uint16(to) == d.id {
				continue
			}
			out := newOut(int(C.oblivex_dkg_party_share_pair_len(p)))
			if err := check(C.oblivex_dkg_party_share_pair(p, C.uint16_t(to), out.ptr(), out.capacity(), &out.written)); err != nil {
				return err
			}
			shares = append(shares, DKGSharePair{To: uint16(to), Bytes: out.bytes()})
		}
		return nil
	})
	if err != nil {
		d.close()
		return nil, nil, err
	}
	return broadcast, shares, nil
}

// Close wipes and releases the party (every round value of its run).
// Idempotent; always nil.
func (r *DKGRound1) Close() error { return r.party.close() }

// Round2 takes every other party's round-1 messages (their broadcasts and
// the share pairs they sent this party; a missing one is left out) and
// returns the party's next state, whose Broadcast is its complaints.
// ErrInvalidPartyID (a sender outside the run), ErrDuplicateMessage (two
// messages of a kind from one sender, or one from this party),
// ErrWrongRound (this value was used already), in a refresh
// ErrOldCommitmentsMismatch (t or more dealers started from other old
// commitments than this party: it, not they, is the odd one out); a
// message that does not decode is no error: the run blames its sender.
func (r *DKGRound1) Round2(commitments, shares []DKGMessage) (*DKGRound2, error) {
	next, err := r.party.round2(commitments, shares)
	if err != nil {
		return nil, err
	}
	return &DKGRound2{next}, nil
}

// round2 runs round 2 on the round-1 broadcasts and the share pairs sent
// to this party.
func (d *dkgParty) round2(commitments, shares []DKGMessage) (dkgRound, error) {
	inbox, err := newDKGInbox(commitments, shares)
	if err != nil {
		return dkgRound{}, err
	}
	c, s := newCArrays(inbox.lists[0]), newCArrays(inbox.lists[1])
	defer c.free()
	defer s.free()
	broadcast, err := d.step(func(p *C.struct_oblivex_dkg_party) C.oblivex_status {
		return C.oblivex_dkg_party_round2(p, ids(inbox.ids), c.ptrs, c.lens, s.ptrs, s.lens, size(len(inbox.ids)))
	})
	return dkgRound{d, broadcast}, err
}

// dkgRound is what each broadcast round's value holds: the party and the
// broadcast of its last step.
type dkgRound struct {
	party *dkgParty
	// Broadcast is the party's message of this round, for every other
	// party (over the broadcast channel).
	Broadcast []byte
}

// Close wipes and releases the party (every round value of its run).
// Idempotent; always nil.
func (r *dkgRound) Close() error { return r.party.close() }

// cStep is a C broadcast round bound to its arguments but the party.
type cStep func(p *C.struct_oblivex_dkg_party, ids *C.uint16_t, messages **C.uint8_t, lens *C.size_t,
	count C.size_t) C.oblivex_status

// next runs one broadcast round on the other parties' messages.
func (r *dkgRound) next(messages []DKGMessage, f cStep) (dkgRound, error) {
	inbox, err := newDKGInbox(messages)
	if err != nil {
		return dkgRound{}, err
	}
	arrays := newCArrays(inbox.lists[0])
	defer arrays.free()
	broadcast, err := r.party.step(func(p *C.struct_oblivex_dkg_party) C.oblivex_status {
		return f(p, ids(inbox.ids), arrays.ptrs, arrays.lens, size(len(inbox.ids)))
	})
	return dkgRound{r.party, broadcast}, err
}

// DKGRound2 is a party after round 2, waiting for every other party's
// complaints; its Broadcast is its own. Use it once (Round3).
type DKGRound2 struct{ dkgRound }

// DKGRound3 is a party after round 3, waiting for every other party's
// justifications; its Broadcast is its answers to the complaints against
// it. Use it once (Round4).
type DKGRound3 struct{ dkgRound }

// DKGRound4 is a party after round 4 (the qualified set is fixed),
// waiting for every other party's Feldman commitments; its Broadcast is
// its own (none for a resharing's new party, which waits for the old
// parties'). Use it once (Round5).
type DKGRound4 struct{ dkgRound }

// DKGRound5 is a party after round 5, waiting for every other party's
// Feldman complaints; its Broadcast is its own. Use it once (Round6).
type DKGRound5 struct{ dkgRound }

// DKGRound6 is a party after round 6, waiting for every other party's
// revealed shares; its Broadcast is its own. Use it once (Finalize).
type DKGRound6 struct{ dkgRound }

// advance runs one broadcast round on r's party and wraps its next state.
func advance[T any](r *dkgRound, messages []DKGMessage, f cStep, wrap func(dkgRound) *T) (*T, error) {
	next, err := r.next(messages, f)
	if err != nil {
		return nil, err
	}
	return wrap(next), nil
}

// cRound3 and cRound4 are the C steps of rounds 3 and 4, which a
// resharing's parties share with a key generation's.
func cRound3(p *C.struct_oblivex_dkg_party, ids *C.uint16_t, m **C.uint8_t, l *C.size_t, n C.size_t) C.oblivex_status {
	return C.oblivex_dkg_party_round3(p, ids, m, l, n)
}

func cRound4(p *C.struct_oblivex_dkg_party, ids *C.uint16_t, m **C.uint8_t, l *C.size_t, n C.size_t) C.oblivex_status {
	return C.oblivex_dkg_party_round4(p, ids, m, l, n)
}

// Round3 takes every other party's complaints; errors as for Round2.
func (r *DKGRound2) Round3(complaints []DKGMessage) (*DKGRound3, error) {
	return advance(&r.dkgRound, complaints, cRound3, func(d dkgRound) *DKGRound3 { return &DKGRound3{d} })
}

// Round4 takes every other party's justifications and fixes the qualified
// set; errors as for Round2, and ErrNoQualifiedParty (every party was
// disqualified: the run is over).
func (r *DKGRound3) Round4(justifications []DKGMessage) (*DKGRound4, error) {
	return advance(&r.dkgRound, justifications, cRound4, func(d dkgRound) *DKGRound4 { return &DKGRound4{d} })
}

// Round5 takes every other party's Feldman commitments; errors as for
// Round2.
func (r *DKGRound4) Round5(commitments []DKGMessage) (*DKGRound5, error) {
	return advance(&r.dkgRound, commitments, func(p *C.struct_oblivex_dkg_party, ids *C.uint16_t, m **C.uint8_t, l *C.size_t, n C.size_t) C.oblivex_status {
		return C.oblivex_dkg_party_round5(p, ids, m, l, n)
	}, func(d dkgRound) *DKGRound5 { return &DKGRound5{d} })
}

// Round6 takes every other party's Feldman complaints; errors as for
// Round2.
func (r *DKGRound5) Round6(complaints []DKGMessage) (*DKGRound6, error) {
	return advance(&r.dkgRound, complaints, func(p *C.struct_oblivex_dkg_party, ids *C.uint16_t, m **C.uint8_t, l *C.size_t, n C.size_t) C.oblivex_status {
		return C.oblivex_dkg_party_round6(p, ids, m, l, n)
	}, func(d dkgRound) *DKGRound6 { return &DKGRound6{d} })
}

// DKGOffence is what a party did, in a DKGBlame entry.
type DKGOffence uint16

// The offences of a DKG run. Those marked "disqualifies" remove the party
// from the qualified set; the others are recorded only.
const (
	// DKGBroadcastMissing: its broadcast of round Detail did not arrive
	// (disqualifies in rounds 1 to 3).
	DKGBroadcastMissing DKGOffence = C.OBLIVEX_DKG_OFFENCE_BROADCAST_MISSING
	// DKGBroadcastInvalid: its broadcast of round Detail did not decode,
	// for the reason Err (disqualifies in rounds 1 to 3).
	DKGBroadcastInvalid DKGOffence = C.OBLIVEX_DKG_OFFENCE_BROADCAST_INVALID
	// DKGTooManyComplaints: Detail parties, at least t, complained
	// against it (disqualifies).
	DKGTooManyComplaints DKGOffence = C.OBLIVEX_DKG_OFFENCE_TOO_MANY_COMPLAINTS
	// DKGComplaintUnanswered: it left party Detail's complaint unanswered
	// (disqualifies).
	DKGComplaintUnanswered DKGOffence = C.OBLIVEX_DKG_OFFENCE_COMPLAINT_UNANSWERED
	// DKGWrongJustification: it answered party Detail's complaint with a
	// pair that fails its own commitments (disqualifies).
	DKGWrongJustification DKGOffence = C.OBLIVEX_DKG_OFFENCE_WRONG_JUSTIFICATION
	// DKGComplaintRefuted: its complaint against dealer Detail was
	// answered with a valid pair.
	DKGComplaintRefuted DKGOffence = C.OBLIVEX_DKG_OFFENCE_COMPLAINT_REFUTED
	// DKGFeldmanInconsistent: its Feldman commitments fail party Detail's
	// share, as Detail proved; its polynomial was rebuilt in public.
	DKGFeldmanInconsistent DKGOffence = C.OBLIVEX_DKG_OFFENCE_FELDMAN_INCONSISTENT
	// DKGFalseFeldmanComplaint: its Feldman complaint against dealer
	// Detail was false.
	DKGFalseFeldmanComplaint DKGOffence = C.OBLIVEX_DKG_OFFENCE_FALSE_FELDMAN_COMPLAINT
	// DKGWrongRevealedShare: it revealed a wrong pair of exposed dealer
	// Detail.
	DKGWrongRevealedShare DKGOffence = C.OBLIVEX_DKG_OFFENCE_WRONG_REVEALED_SHARE
	// DKGWrongConstantTerm: in a resharing, an old party dealt a constant
	// term that is not the commitment to its old share.
	DKGWrongConstantTerm DKGOffence = C.OBLIVEX_DKG_OFFENCE_WRONG_CONSTANT_TERM
)

// DKGBlame is one entry of a run's blame list: who, and what.
type DKGBlame struct {
	// Party is the party named.
	Party uint16
	// Offence is what it did.
	Offence DKGOffence
	// Detail is the offence's detail: a round, a party id or a count
	// (see each DKGOffence).
	Detail uint16
	// Err is why its broadcast did not decode (DKGBroadcastInvalid);
	// nil otherwise.
	Err error
}

// DKGOutput is a finished DKG at one party: exactly what Deal gives a
// server (its share, and the joint commitments whose PublicKey is the
// shared key), plus the qualified set and the blame list, the same at
// every honest party. The share and commitments are the caller's to
// Close.
type DKGOutput struct {
	// Share is this party's key share.
	Share *KeyShare
	// Commitments are the joint Feldman commitments.
	Commitments *Commitments
	// Qualified are the dealers whose polynomials make up the key,
	// increasing.
	Qualified []uint16
	// Blame is the blame list, by party then by the order of the rounds.
	Blame []DKGBlame
}

// Finalize takes every other party's revealed shares and finishes the
// run, releasing the party: errors as for Round2 (the party kept), and,
// the run failed (the party released): ErrNotEnoughRevealedShares,
// ErrDegenerateKey (run again with a new session id), ErrShareMismatch.
func (r *DKGRound6) Finalize(reveals []DKGMessage) (*DKGOutput, error) {
	inbox, err := newDKGInbox(reveals)
	if err != nil {
		return nil, err
	}
	arrays := newCArrays(inbox.lists[0])
	defer arrays.free()
	var sp *C.struct_oblivex_key_share
	var cp *C.struct_oblivex_commitments
	output := &DKGOutput{}
	err = r.party.res.exclusive(func(p *C.struct_oblivex_dkg_party) error {
		if err := check(C.oblivex_dkg_party_finalize(p, ids(inbox.ids), arrays.ptrs, arrays.lens, size(len(inbox.ids)),
			&sp, &cp)); err != nil {
			return err
		}
		var err error
		if output.Qualified, output.Blame, err = r.party.result(p); err != nil {
			C.oblivex_key_share_free(sp)
			C.oblivex_commitments_free(cp)
		}
		return err
	})
	if err != nil {
		r.party.releaseIfSpent()
		return nil, err
	}
	r.party.close()
	output.Share = newKeyShare(r.party.suite, sp)
	if output.Commitments, err = newCommitments(r.party.suite, cp); err != nil {
		output.Share.Close()
		return nil, err
	}
	return output, nil
}

// result reads a finalized party's qualified set and blame list.
func (d *dkgParty) result(p *C.struct_oblivex_dkg_party) ([]uint16, []DKGBlame, error) {
	qualified := make([]uint16, d.dealers)
	var written C.size_t
	if err := check(C.oblivex_dkg_party_qualified(p, (*C.uint16_t)(unsafe.Pointer(&qualified[0])), size(len(qualified)),
		&written)); err != nil {
		return nil, nil, err
	}
	qualified = qualified[:written]
	values := make([]uint16, int(C.oblivex_dkg_party_blame_len(p))+1) // never empty: a valid pointer
	if err := check(C.oblivex_dkg_party_blame(p, (*C.uint16_t)(unsafe.Pointer(&values[0])), size(len(values)),
		&written)); err != nil {
		return nil, nil, err
	}
	var blame []DKGBlame
	for i := 0; i+dkgBlameEntryLen <= int(written); i += dkgBlameEntryLen {
		v := values[i : i+dkgBlameEntryLen]
		entry := DKGBlame{Party: v[0], Offence: DKGOffence(v[1]), Detail: v[2]}
		if v[3] != 0 {
			entry.Err = check(C.oblivex_status(v[3]))
		}
		blame = append(blame, entry)
	}
	return qualified, blame, nil
}

// dkgBlameEntryLen is the number of values of one blame entry in C.
const dkgBlameEntryLen = int(C.OBLIVEX_DKG_BLAME_ENTRY_LEN)
