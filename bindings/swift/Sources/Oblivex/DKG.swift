import COblivex

/// One DKG message as the transport delivered it: the sender the transport
/// authenticated, and the bytes. Empty bytes are a message that did not
/// arrive (the same as leaving it out).
public struct DKGMessage: Hashable, Sendable {
    /// The authenticated sender's party id.
    public var from: UInt16
    /// The encoded message.
    public var bytes: [UInt8]

    /// The message `bytes` (any collection of bytes) from party `from`.
    public init(from: UInt16, bytes: some Collection<UInt8>) {
        self.from = from
        self.bytes = Array(bytes)
    }
}

/// One of a party's round-1 private messages: its share pair for party
/// ``to``. Secret: send it to ``to`` only, over an authenticated and
/// encrypted channel, and wipe it after.
public struct DKGSharePair: Sendable {
    /// The recipient's party id.
    public let to: UInt16
    /// The encoded pair.
    public let bytes: [UInt8]
}

/// What a party did, in a ``DKGBlame`` entry (the C library's
/// `OBLIVEX_DKG_OFFENCE_*` code). Those marked "disqualifies" remove the
/// party from the qualified set; the others are recorded only. A struct, so
/// that a code a newer library adds still comes through.
public struct DKGOffence: RawRepresentable, Hashable, Sendable {
    /// The C code.
    public let rawValue: UInt16

    /// The offence of C code `rawValue`.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    private init(_ code: Int32) {
        self.rawValue = UInt16(code)
    }

    /// Its broadcast of round ``DKGBlame/detail`` did not arrive
    /// (disqualifies in rounds 1 to 3).
    public static let broadcastMissing = DKGOffence(OBLIVEX_DKG_OFFENCE_BROADCAST_MISSING)
    /// Its broadcast of round ``DKGBlame/detail`` did not decode, for the
    /// reason ``DKGBlame/error`` (disqualifies in rounds 1 to 3).
    public static let broadcastInvalid = DKGOffence(OBLIVEX_DKG_OFFENCE_BROADCAST_INVALID)
    /// ``DKGBlame/detail`` parties, at least t, complained against it
    /// (disqualifies).
    public static let tooManyComplaints = DKGOffence(OBLIVEX_DKG_OFFENCE_TOO_MANY_COMPLAINTS)
    /// It left party ``DKGBlame/detail``'s complaint unanswered
    /// (disqualifies).
    public static let complaintUnanswered = DKGOffence(OBLIVEX_DKG_OFFENCE_COMPLAINT_UNANSWERED)
    /// It answered party ``DKGBlame/detail``'s complaint with a pair that
    /// fails its own commitments (disqualifies).
    public static let wrongJustification = DKGOffence(OBLIVEX_DKG_OFFENCE_WRONG_JUSTIFICATION)
    /// Its complaint against dealer ``DKGBlame/detail`` was answered with a
    /// valid pair.
    public static let complaintRefuted = DKGOffence(OBLIVEX_DKG_OFFENCE_COMPLAINT_REFUTED)
    /// Its Feldman commitments fail party ``DKGBlame/detail``'s share, as
    /// that party proved; its polynomial was rebuilt in public.
    public static let feldmanInconsistent = DKGOffence(OBLIVEX_DKG_OFFENCE_FELDMAN_INCONSISTENT)
    /// Its Feldman complaint against dealer ``DKGBlame/detail`` was false.
    public static let falseFeldmanComplaint = DKGOffence(OBLIVEX_DKG_OFFENCE_FALSE_FELDMAN_COMPLAINT)
    /// It revealed a wrong pair of exposed dealer ``DKGBlame/detail``.
    public static let wrongRevealedShare = DKGOffence(OBLIVEX_DKG_OFFENCE_WRONG_REVEALED_SHARE)
    /// In a resharing, an old party dealt a constant term that is not the
    /// commitment to its old share.
    public static let wrongConstantTerm = DKGOffence(OBLIVEX_DKG_OFFENCE_WRONG_CONSTANT_TERM)
}

/// One entry of a run's blame list: who, and what.
public struct DKGBlame: Hashable, Sendable {
    /// The party named.
    public let party: UInt16
    /// What it did.
    public let offence: DKGOffence
    /// The offence's detail: a round, a party id or a count (see each
    /// ``DKGOffence``).
    public let detail: UInt16
    /// Why its broadcast did not decode (``DKGOffence/broadcastInvalid``);
    /// nil otherwise.
    public let error: OblivexError?

    /// The entry naming `party` for `offence` (to compare with a run's).
    public init(party: UInt16, offence: DKGOffence, detail: UInt16, error: OblivexError?) {
        self.party = party
        self.offence = offence
        self.detail = detail
        self.error = error
    }
}

/// A finished DKG at one party: exactly what ``KeyShare/deal(suite:secret:threshold:parties:)``
/// gives a server (its share, and the joint commitments whose
/// ``Commitments/publicKey`` is the shared key), plus the qualified set and
/// the blame list, the same at every honest party.
public struct DKGOutput: Sendable {
    /// This party's key share.
    public let share: KeyShare
    /// The joint Feldman commitments.
    public let commitments: Commitments
    /// The dealers whose polynomials make up the key, increasing.
    public let qualified: [UInt16]
    /// The blame list, by party then by the order of the rounds.
    public let blame: [DKGBlame]
}

/// The C party a run's round states share: freed, its secrets wiped, once,
/// when the last of them goes.
final class DKGParty {
    let handle: OpaquePointer
    let suite: Suite
    let id: UInt16
    /// The parties that end with a share (n′ in a resharing).
    let parties: Int
    /// The parties that deal (the old n in a resharing; else ``parties``).
    let dealers: Int

    init(suite: Suite, id: UInt16, parties: Int, dealers: Int, taking handle: OpaquePointer) {
        self.handle = handle
        self.suite = suite
        self.id = id
        self.parties = parties
        self.dealers = dealers
    }

    deinit {
        oblivex_dkg_party_free(handle)
    }

    /// The broadcast of the party's last step (empty after a step that
    /// sends nothing: a resharing's new party at its start and in rounds 3
    /// and 4).
    func broadcast() throws(OblivexError) -> [UInt8] {
        let length = oblivex_dkg_party_broadcast_len(handle)
        guard length > 0 else {
            return []
        }
        return try withOutput(capacity: length) {
            oblivex_dkg_party_broadcast(handle, $0, $1, $2)
        }
    }

    /// One round's messages by sender, as the C steps take them: the
    /// senders, and for each kind of message one byte string per sender
    /// (empty where it did not arrive). ``OblivexError/duplicateMessage``
    /// for a kind given twice by one sender, as the library refuses it
    /// (the library refuses one from this party: in a resharing old and
    /// new parties are numbered apart, so an old party's id may be this
    /// new party's).
    func inbox(_ kinds: [[DKGMessage]]) throws(OblivexError) -> (ids: [UInt16], lists: [[[UInt8]]]) {
        var ids: [UInt16] = []
        var slots: [UInt16: Int] = [:]
        var lists = [[[UInt8]]](repeating: [], count: kinds.count)
        for (kind, messages) in kinds.enumerated() {
            var seen = Set<UInt16>()
            for message in messages {
                guard seen.insert(message.from).inserted else {
                    throw .duplicateMessage
                }
                let slot = slots[message.from] ?? ids.count
                if slot == ids.count {
                    slots[message.from] = slot
                    ids.append(message.from)
                    for index in lists.indices {
                        lists[index].append([])
                    }
                }
                lists[kind][slot] = message.bytes
            }
        }
        return (ids, lists)
    }

    /// The round-1 messages of a dealer: its broadcast, and a share pair
    /// for each party 1...``parties`` (but itself when `skipOwn`: in a key
    /// generation or refresh it deals to itself in no message).
    func dealt(skipOwn: Bool) throws(OblivexError) -> (broadcast: [UInt8], shares: [DKGSharePair]) {
        let broadcast = try broadcast()
        var shares: [DKGSharePair] = []
        for to in 1...UInt16(parties) where !(skipOwn && to == id) {
            let bytes = try withOutput(capacity: oblivex_dkg_party_share_pair_len(handle)) {
                oblivex_dkg_party_share_pair(handle, to, $0, $1, $2)
            }
            shares.append(DKGSharePair(to: to, bytes: bytes))
        }
        return (broadcast, shares)
    }

    /// Runs round 2 on the round-1 broadcasts and the share pairs sent to
    /// this party, and returns the party's complaints.
    func round2(commitments: [DKGMessage], shares: [DKGMessage]) throws(OblivexError) -> [UInt8] {
        let (ids, lists) = try inbox([commitments, shares])
        try check(withPartyIDs(ids) { idsPointer, count in
            withByteStrings(lists[0]) { commitmentPointers, commitmentLengths, _ in
                withByteStrings(lists[1]) { sharePointers, shareLengths, _ in
                    oblivex_dkg_party_round2(handle, idsPointer, commitmentPointers, commitmentLengths,
                                             sharePointers, shareLengths, count)
                }
            }
        })
        return try broadcast()
    }

    /// Runs one broadcast round (3 to 6) on the other parties' messages
    /// and returns the party's new broadcast.
    func step(
        _ messages: [DKGMessage],
        _ call: (OpaquePointer, UnsafePointer<UInt16>?, UnsafePointer<UnsafePointer<UInt8>?>, UnsafePointer<Int>, Int)
            -> Int32
    ) throws(OblivexError) -> [UInt8] {
        let (ids, lists) = try inbox([messages])
        try check(withPartyIDs(ids) { idsPointer, count in
            withByteStrings(lists[0]) { pointers, lengths, _ in
                call(handle, idsPointer, pointers, lengths, count)
            }
        })
        return try broadcast()
    }
}

/// A party after its start, waiting for every other party's round-1
/// messages: it sends ``broadcast`` to every other party (over the
/// broadcast channel, docs/PROTOCOLS.md §10) and each of ``shares`` to its
/// recipient only.
///
/// Each round state is `~Copyable` and its step consumes it: a round cannot
/// be skipped or repeated (the compiler refuses it). Not `Sendable`.
public struct DKGRound1: ~Copyable {
    let party: DKGParty
    /// The party's Pedersen commitments, for every other party.
    public let broadcast: [UInt8]
    /// The private share pairs, one per other party.
    public let shares: [DKGSharePair]

    /// Starts party `id` (1...`parties`) of a new t-of-n key of `suite`
    /// (`threshold` t, `parties` n: 1 <= t, 2 <= n <= ``Library/maxParties``,
    /// n >= 2t − 1) in the run named by `session` (``Library/dkgSessionIDLength``
    /// bytes the parties chose together, never reused):
    /// ``OblivexError/badLength`` (the session), ``OblivexError/invalidThreshold``,
    /// ``OblivexError/invalidPartyID``.
    public init(suite: Suite, threshold: Int, parties: Int, session: some Collection<UInt8>, id: UInt16)
        throws(OblivexError) {
        var handle: OpaquePointer?
        try check(withBytes(session) {
            oblivex_dkg_party_new(suite.rawValue, threshold, parties, $0, $1, id, &handle)
        })
        try self.init(DKGParty(suite: suite, id: id, parties: parties, dealers: parties, taking: handle!))
    }

    /// Starts the holder of `share` in a refresh of the key `commitments`
    /// commit to (their threshold, at least 2; `parties` and `session` as
    /// for a new key): at the end it has a new share of the same key and
    /// new commitments with the same public key, and old shares stop
    /// combining with new ones. Every party starts from the same
    /// commitments. ``OblivexError/suiteMismatch``, ``OblivexError/badLength``,
    /// ``OblivexError/invalidThreshold``, ``OblivexError/invalidPartyID``,
    /// ``OblivexError/shareMismatch`` (the share fails the commitments).
    public init(refreshing share: KeyShare, commitments: Commitments, parties: Int, session: some Collection<UInt8>)
        throws(OblivexError) {
        var handle: OpaquePointer?
        try withExtendedLifetime((share, commitments)) { () throws(OblivexError) in
            try check(withBytes(session) {
                oblivex_dkg_refresh_new(share.handle, commitments.handle, parties, $0, $1, &handle)
            })
        }
        try self.init(DKGParty(suite: share.suite, id: share.id, parties: parties, dealers: parties, taking: handle!))
    }

    /// Reads a new party's round-1 messages.
    private init(_ party: DKGParty) throws(OblivexError) {
        // Every field at once, after the last throw: a ~Copyable value
        // cannot be left partly initialized.
        let (broadcast, shares) = try party.dealt(skipOwn: true)
        self.party = party
        self.broadcast = broadcast
        self.shares = shares
    }

    /// Takes every other party's round-1 messages (their broadcasts, and
    /// the share pairs they sent this party; a missing one is left out)
    /// and returns the next state, whose broadcast is the party's
    /// complaints. ``OblivexError/invalidPartyID`` (a sender outside the
    /// run), ``OblivexError/duplicateMessage`` (two messages of a kind from
    /// one sender, or one from this party), in a refresh
    /// ``OblivexError/oldCommitmentsMismatch`` (t or more dealers started
    /// from other old commitments than this party); a message that does
    /// not decode is no error: the run blames its sender. Consumes the
    /// state whatever the outcome.
    public consuming func round2(commitments: [DKGMessage], shares: [DKGMessage]) throws(OblivexError) -> DKGRound2 {
        let party = self.party
        let broadcast = try party.round2(commitments: commitments, shares: shares)
        return DKGRound2(party: party, broadcast: broadcast)
    }
}

/// A party after round 2, waiting for every other party's complaints; its
/// ``broadcast`` is its own. `~Copyable`, consumed by ``round3(_:)``.
public struct DKGRound2: ~Copyable {
    let party: DKGParty
    /// The party's complaints, for every other party.
    public let broadcast: [UInt8]

    /// Takes every other party's complaints; errors as for
    /// ``DKGRound1/round2(commitments:shares:)``.
    public consuming func round3(_ complaints: [DKGMessage]) throws(OblivexError) -> DKGRound3 {
        let party = self.party
        let broadcast = try party.step(complaints) { oblivex_dkg_party_round3($0, $1, $2, $3, $4) }
        return DKGRound3(party: party, broadcast: broadcast)
    }
}

/// A party after round 3, waiting for every other party's justifications;
/// its ``broadcast`` is its answers to the complaints against it.
/// `~Copyable`, consumed by ``round4(_:)``.
public struct DKGRound3: ~Copyable {
    let party: DKGParty
    /// The party's justifications, for every other party.
    public let broadcast: [UInt8]

    /// Takes every other party's justifications and fixes the qualified
    /// set; errors as for ``DKGRound1/round2(commitments:shares:)``, and
    /// ``OblivexError/noQualifiedParty`` (every party was disqualified).
    public consuming func round4(_ justifications: [DKGMessage]) throws(OblivexError) -> DKGRound4 {
        let party = self.party
        let broadcast = try party.step(justifications) { oblivex_dkg_party_round4($0, $1, $2, $3, $4) }
        return DKGRound4(party: party, broadcast: broadcast)
    }
}

/// A party after round 4 (the qualified set is fixed), waiting for every
/// other party's Feldman commitments; its ``broadcast`` is its own (empty
/// for a resharing's new party, which waits for the old parties').
/// `~Copyable`, consumed by ``round5(_:)``.
public struct DKGRound4: ~Copyable {
    let party: DKGParty
    /// The party's Feldman commitments, for every other party.
    public let broadcast: [UInt8]

    /// Takes every other party's Feldman commitments; errors as for
    /// ``DKGRound1/round2(commitments:shares:)``.
    public consuming func round5(_ commitments: [DKGMessage]) throws(OblivexError) -> DKGRound5 {
        let party = self.party
        let broadcast = try party.step(commitments) { oblivex_dkg_party_round5($0, $1, $2, $3, $4) }
        return DKGRound5(party: party, broadcast: broadcast)
    }
}

/// A party after round 5, waiting for every other party's Feldman
/// complaints; its ``broadcast`` is its own. `~Copyable`, consumed by
/// ``round6(_:)``.
public struct DKGRound5: ~Copyable {
    let party: DKGParty
    /// The party's Feldman complaints, for every other party.
    public let broadcast: [UInt8]

    /// Takes every other party's Feldman complaints; errors as for
    /// ``DKGRound1/round2(commitments:shares:)``.
    public consuming func round6(_ complaints: [DKGMessage]) throws(OblivexError) -> DKGRound6 {
        let party = self.party
        let broadcast = try party.step(complaints) { oblivex_dkg_party_round6($0, $1, $2, $3, $4) }
        return DKGRound6(party: party, broadcast: broadcast)
    }
}

/// A party after round 6, waiting for every other party's revealed shares;
/// its ``broadcast`` is its own. `~Copyable`, consumed by
/// ``finalize(_:)``.
public struct DKGRound6: ~Copyable {
    let party: DKGParty
    /// The pairs the party reveals, for every other party.
    public let broadcast: [UInt8]

    /// Takes every other party's revealed shares and finishes the run:
    /// errors as for ``DKGRound1/round2(commitments:shares:)``, and a failed
    /// run: ``OblivexError/notEnoughRevealedShares``,
    /// ``OblivexError/degenerateKey`` (run again with a new session id),
    /// ``OblivexError/shareMismatch``.
    public consuming func finalize(_ reveals: [DKGMessage]) throws(OblivexError) -> DKGOutput {
        let party = self.party
        let (ids, lists) = try party.inbox([reveals])
        var shareHandle: OpaquePointer?
        var commitmentsHandle: OpaquePointer?
        try check(withPartyIDs(ids) { idsPointer, count in
            withByteStrings(lists[0]) { pointers, lengths, _ in
                oblivex_dkg_party_finalize(party.handle, idsPointer, pointers, lengths, count,
                                           &shareHandle, &commitmentsHandle)
            }
        })
        let share = KeyShare(suite: party.suite, taking: shareHandle!)
        let commitments = try Commitments(suite: party.suite, taking: commitmentsHandle!)
        let qualified: [UInt16] = try withOutputValues(capacity: party.dealers) { oblivex_dkg_party_qualified(party.handle, $0, $1, $2) }
        let values: [UInt16] = try withOutputValues(capacity: oblivex_dkg_party_blame_len(party.handle)) {
            oblivex_dkg_party_blame(party.handle, $0, $1, $2)
        }
        let width = Int(OBLIVEX_DKG_BLAME_ENTRY_LEN)
        let blame = stride(from: 0, to: values.count - width + 1, by: width).map { at in
            DKGBlame(party: values[at], offence: DKGOffence(rawValue: values[at + 1]),
                     detail: values[at + 2], error: OblivexError(status: Int32(values[at + 3])))
        }
        return DKGOutput(share: share, commitments: commitments, qualified: qualified, blame: blame)
    }
}
