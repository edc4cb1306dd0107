import COblivex

// A resharing (docs/PROTOCOLS.md §10, "Resharing") moves the key of an old
// t-of-n set to a new t′-of-n′ set, possibly of other parties: the public
// key and every threshold output stay. Old parties (ids 1...n) deal their
// shares and are done after round 4; new parties (ids 1...n′) receive and
// end with a DKGOutput. A party in both sets runs both, one state each.
//
//     old party: ReshareDealerRound1(resharing:...) -> round3(_:) -> round4() (its last broadcast)
//     new party: ReshareReceiverRound1(commitments:...) -> round2(commitments:shares:) -> round3(_:)
//                -> round4(_:) -> DKGRound4.round5(_:) ... DKGRound6.finalize(_:)
//
// The old parties' broadcasts and pairs go to the new parties; the new
// parties' complaints to every old and new party; their later broadcasts
// to the other new parties.

/// An old party of a resharing after its start, waiting for the new
/// parties' complaints: it sends ``broadcast`` to every new party and each
/// of ``shares`` to its recipient only. `~Copyable`, consumed by
/// ``round3(_:)``.
public struct ReshareDealerRound1: ~Copyable {
    let party: DKGParty
    /// The party's Pedersen commitments, for every new party.
    public let broadcast: [UInt8]
    /// The private share pairs, one per new party 1...n′.
    public let shares: [DKGSharePair]

    /// Starts the holder of `share`, old party `share.id` of the
    /// t-of-`oldParties` key `commitments` commit to (t is theirs), as a
    /// dealer in the resharing of that key to a new `threshold`-of-`parties`
    /// set, in the run named by `session` (``Library/dkgSessionIDLength``
    /// bytes): every party, old and new, starts from the same commitments,
    /// `oldParties`, `threshold` and `parties`. ``OblivexError/suiteMismatch``,
    /// ``OblivexError/badLength`` (the session), ``OblivexError/invalidThreshold``
    /// (either set), ``OblivexError/invalidPartyID`` (the share's id above
    /// `oldParties`), ``OblivexError/shareMismatch`` (the share fails the
    /// commitments).
    public init(resharing share: KeyShare, commitments: Commitments, oldParties: Int, threshold: Int, parties: Int,
                session: some Collection<UInt8>) throws(OblivexError) {
        var handle: OpaquePointer?
        try withExtendedLifetime((share, commitments)) { () throws(OblivexError) in
            try check(withBytes(session) {
                oblivex_dkg_reshare_dealer_new(share.handle, commitments.handle, oldParties, threshold, parties,
                                               $0, $1, &handle)
            })
        }
        let party = DKGParty(suite: share.suite, id: share.id, parties: parties, dealers: oldParties,
                             taking: handle!)
        let (broadcast, shares) = try party.dealt(skipOwn: false)
        self.party = party
        self.broadcast = broadcast
        self.shares = shares
    }

    /// Takes the new parties' complaints (senders 1...n′; this party's own
    /// id is a new party's like any other); errors as for
    /// ``DKGRound1/round2(commitments:shares:)``.
    public consuming func round3(_ complaints: [DKGMessage]) throws(OblivexError) -> ReshareDealerRound3 {
        let party = self.party
        let broadcast = try party.step(complaints) { oblivex_dkg_party_round3($0, $1, $2, $3, $4) }
        return ReshareDealerRound3(party: party, broadcast: broadcast)
    }
}

/// An old party of a resharing after round 3: its ``broadcast`` (for every
/// new party) is its answers to the complaints against it. `~Copyable`,
/// consumed by ``round4()`` after round 3's deadline.
public struct ReshareDealerRound3: ~Copyable {
    let party: DKGParty
    /// The party's justifications, for every new party.
    public let broadcast: [UInt8]

    /// Publishes the party's Feldman commitments (its last broadcast, for
    /// every new party) once the qualified set is fixed: its part is done,
    /// it gets no share, and its old share is wiped with the party.
    public consuming func round4() throws(OblivexError) -> [UInt8] {
        let party = self.party
        return try party.step([]) { oblivex_dkg_party_round4($0, $1, $2, $3, $4) }
    }
}

/// A new party of a resharing after its start (it sends nothing in round
/// 1), waiting for the old parties' round-1 messages. `~Copyable`,
/// consumed by ``round2(commitments:shares:)``.
public struct ReshareReceiverRound1: ~Copyable {
    let party: DKGParty

    /// Starts new party `id` (1...`parties`) of the resharing of the
    /// t-of-`oldParties` key `commitments` commit to, to a new
    /// `threshold`-of-`parties` set, in the run named by `session`;
    /// parameters as for ``ReshareDealerRound1/init(resharing:commitments:oldParties:threshold:parties:session:)``.
    /// ``OblivexError/badLength`` (the session), ``OblivexError/invalidThreshold``
    /// (either set), ``OblivexError/invalidPartyID``.
    public init(commitments: Commitments, oldParties: Int, threshold: Int, parties: Int,
                session: some Collection<UInt8>, id: UInt16) throws(OblivexError) {
        var handle: OpaquePointer?
        try withExtendedLifetime(commitments) { () throws(OblivexError) in
            try check(withBytes(session) {
                oblivex_dkg_reshare_receiver_new(commitments.handle, oldParties, threshold, parties, $0, $1, id,
                                                 &handle)
            })
        }
        party = DKGParty(suite: commitments.suite, id: id, parties: parties, dealers: oldParties, taking: handle!)
    }

    /// Takes the old parties' round-1 messages (senders 1...n, the old ids:
    /// this party's own id is an old party's like any other): their
    /// broadcasts and the share pairs they sent this party. Errors as for
    /// ``DKGRound1/round2(commitments:shares:)``.
    public consuming func round2(commitments: [DKGMessage], shares: [DKGMessage])
        throws(OblivexError) -> ReshareReceiverRound2 {
        let party = self.party
        let broadcast = try party.round2(commitments: commitments, shares: shares)
        return ReshareReceiverRound2(party: party, broadcast: broadcast)
    }
}

/// A new party of a resharing after round 2: its ``broadcast`` (for every
/// old and every other new party) is its complaints. `~Copyable`, consumed
/// by ``round3(_:)``.
public struct ReshareReceiverRound2: ~Copyable {
    let party: DKGParty
    /// The party's complaints.
    public let broadcast: [UInt8]

    /// Takes the other new parties' complaints and keeps them for
    /// ``ReshareReceiverRound3/round4(_:)`` (this party sends nothing);
    /// errors as for ``DKGRound1/round2(commitments:shares:)``.
    public consuming func round3(_ complaints: [DKGMessage]) throws(OblivexError) -> ReshareReceiverRound3 {
        let party = self.party
        _ = try party.step(complaints) { oblivex_dkg_party_round3($0, $1, $2, $3, $4) }
        return ReshareReceiverRound3(party: party)
    }
}

/// A new party of a resharing after round 3, waiting for the old parties'
/// justifications. `~Copyable`, consumed by ``round4(_:)``.
public struct ReshareReceiverRound3: ~Copyable {
    let party: DKGParty

    /// Takes the old parties' justifications and fixes the qualified set
    /// (old parties); the run goes on as a key generation's, from
    /// ``DKGRound4/round5(_:)`` on the old parties' Feldman commitments
    /// (the returned state's broadcast is empty: this party sends nothing).
    /// Errors as for ``DKGRound1/round2(commitments:shares:)``, and
    /// ``OblivexError/noQualifiedParty`` (fewer than the old threshold of
    /// old parties qualified).
    public consuming func round4(_ justifications: [DKGMessage]) throws(OblivexError) -> DKGRound4 {
        let party = self.party
        let broadcast = try party.step(justifications) { oblivex_dkg_party_round4($0, $1, $2, $3, $4) }
        return DKGRound4(party: party, broadcast: broadcast)
    }
}
