package oblivex

// #include <oblivex.h>
import "C"

// A resharing (docs/PROTOCOLS.md §10, "Resharing") moves the key of an old
// t-of-n set to a new t′-of-n′ set, possibly of other parties: the public
// key and every threshold output stay. Old parties (ids 1..n) deal their
// shares and are done after round 4; new parties (ids 1..n′) receive and
// end with a DKGOutput. A party in both sets runs both, one value each.
//
//	old party: StartReshareDealer -> Round3(complaints) -> Round4() (its last broadcast)
//	new party: StartReshareReceiver -> Round2(commitments, shares) -> Round3(complaints)
//	           -> Round4(justifications) -> DKGRound4.Round5 ... DKGRound6.Finalize
//
// The old parties' broadcasts and pairs go to the new parties; the new
// parties' complaints to every old and new party; their later broadcasts
// to the other new parties.

// ReshareDealerRound1 is an old party of a resharing after its start,
// waiting for the new parties' complaints: it sends Broadcast to every
// new party and each of Shares to its recipient only. Use it once
// (Round3); Close wipes the party.
type ReshareDealerRound1 struct {
	party *dkgParty
	// Broadcast is the party's Pedersen commitments.
	Broadcast []byte
	// Shares are the private share pairs, one per new party 1..n′.
	Shares []DKGSharePair
}

// StartReshareDealer starts the holder of share, old party share.ID() of
// the t-of-oldParties key that commitments commit to (t is theirs), as a
// dealer in the resharing of that key to a new threshold-of-parties set,
// in the run named by session (DKGSessionIDLen bytes): every party, old
// and new, starts from the same commitments, oldParties, threshold and
// parties. ErrSuiteMismatch, ErrBadLength (session), ErrInvalidThreshold
// (either set), ErrInvalidPartyID (the share's id above oldParties),
// ErrShareMismatch (the share fails the commitments).
func StartReshareDealer(share *KeyShare, commitments *Commitments, oldParties, threshold, parties int,
	session []byte) (*ReshareDealerRound1, error) {
	if share == nil || commitments == nil {
		return nil, ErrNullPointer
	}
	var p *C.struct_oblivex_dkg_party
	err := share.res.use(func(sp *C.struct_oblivex_key_share) error {
		return commitments.res.use(func(cp *C.struct_oblivex_commitments) error {
			return check(C.oblivex_dkg_reshare_dealer_new(sp, cp, size(oldParties), size(threshold), size(parties),
				in(session), size(len(session)), &p))
		})
	})
	if err != nil {
		return nil, err
	}
	party := newDKGParty(share.suite, share.id, parties, oldParties, p)
	broadcast, shares, err := party.dealt(false)
	if err != nil {
		return nil, err
	}
	return &ReshareDealerRound1{party: party, Broadcast: broadcast, Shares: shares}, nil
}

// Close wipes and releases the party (every round value of its run).
// Idempotent; always nil.
func (r *ReshareDealerRound1) Close() error { return r.party.close() }

// ReshareDealerRound3 is an old party of a resharing after round 3: its
// Broadcast (for every new party) is its answers to the complaints
// against it. Use it once (Round4), after round 3's deadline.
type ReshareDealerRound3 struct{ dkgRound }

// Round3 takes the new parties' complaints (senders 1..n′; the party's own
// id is a new party's like any other); errors as for DKGRound1.Round2.
func (r *ReshareDealerRound1) Round3(complaints []DKGMessage) (*ReshareDealerRound3, error) {
	current := dkgRound{party: r.party}
	return advance(&current, complaints, cRound3, func(d dkgRound) *ReshareDealerRound3 {
		return &ReshareDealerRound3{d}
	})
}

// Round4 publishes the party's Feldman commitments (its last broadcast,
// for every new party) once the qualified set is fixed, and releases the
// party, wiping its old share: its part is done, it gets no share.
// ErrWrongRound (this value was used already).
func (r *ReshareDealerRound3) Round4() ([]byte, error) {
	broadcast, err := r.party.step(func(p *C.struct_oblivex_dkg_party) C.oblivex_status {
		return C.oblivex_dkg_party_round4(p, nil, nil, nil, 0)
	})
	r.party.close()
	return broadcast, err
}

// ReshareReceiverRound1 is a new party of a resharing after its start
// (it sends nothing in round 1), waiting for the old parties' round-1
// messages. Use it once (Round2); Close wipes the party.
type ReshareReceiverRound1 struct{ party *dkgParty }

// StartReshareReceiver starts new party id (1..parties) of the resharing
// of the t-of-oldParties key that commitments commit to, to a new
// threshold-of-parties set, in the run named by session; parameters as
// for StartReshareDealer. ErrBadLength (session), ErrInvalidThreshold
// (either set), ErrInvalidPartyID.
func StartReshareReceiver(commitments *Commitments, oldParties, threshold, parties int, session []byte,
	id uint16) (*ReshareReceiverRound1, error) {
	if commitments == nil {
		return nil, ErrNullPointer
	}
	var p *C.struct_oblivex_dkg_party
	err := commitments.res.use(func(cp *C.struct_oblivex_commitments) error {
		return check(C.oblivex_dkg_reshare_receiver_new(cp, size(oldParties), size(threshold), size(parties),
			in(session), size(len(session)), C.uint16_t(id), &p))
	})
	if err != nil {
		return nil, err
	}
	return &ReshareReceiverRound1{newDKGParty(commitments.suite, id, parties, oldParties, p)}, nil
}

// Close wipes and releases the party (every round value of its run).
// Idempotent; always nil.
func (r *ReshareReceiverRound1) Close() error { return r.party.close() }

// ReshareReceiverRound2 is a new party of a resharing after round 2: its
// Broadcast (for every old and every other new party) is its complaints.
// Use it once (Round3).
type ReshareReceiverRound2 struct{ dkgRound }

// ReshareReceiverRound3 is a new party of a resharing after round 3 (it
// sent nothing), waiting for the old parties' justifications. Use it
// once (Round4).
type ReshareReceiverRound3 struct{ dkgRound }

// Round2 takes the old parties' round-1 messages (senders 1..n, the old
// ids: the party's own id is an old party's like any other): their
// broadcasts and the share pairs they sent this party; errors as for
// DKGRound1.Round2.
func (r *ReshareReceiverRound1) Round2(commitments, shares []DKGMessage) (*ReshareReceiverRound2, error) {
	next, err := r.party.round2(commitments, shares)
	if err != nil {
		return nil, err
	}
	return &ReshareReceiverRound2{next}, nil
}

// Round3 takes the other new parties' complaints and keeps them for
// Round4; errors as for DKGRound1.Round2.
func (r *ReshareReceiverRound2) Round3(complaints []DKGMessage) (*ReshareReceiverRound3, error) {
	return advance(&r.dkgRound, complaints, cRound3, func(d dkgRound) *ReshareReceiverRound3 {
		return &ReshareReceiverRound3{d}
	})
}

// Round4 takes the old parties' justifications and fixes the qualified
// set (old parties); the run then goes on as a key generation's, from
// DKGRound4.Round5 on the old parties' Feldman commitments (the returned
// value's Broadcast is empty: the party sends nothing). Errors as for
// DKGRound1.Round2, and ErrNoQualifiedParty (fewer than the old threshold
// of old parties qualified: the run is over).
func (r *ReshareReceiverRound3) Round4(justifications []DKGMessage) (*DKGRound4, error) {
	return advance(&r.dkgRound, justifications, cRound4, func(d dkgRound) *DKGRound4 { return &DKGRound4{d} })
}
