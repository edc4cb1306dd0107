import Oblivex
import Testing

/// What a party of the other set receives of broadcasts (`broadcasts[i]`
/// is party i + 1's): every sender's, its own id no exception (old and new
/// parties are numbered apart).
func everyone(_ step: DKGStep, to: UInt16, _ broadcasts: [[UInt8]], _ tamper: DKGTamper) -> [DKGMessage] {
    broadcasts.indices.map { index in
        let from = UInt16(index + 1)
        var copy = broadcasts[index]
        tamper(step, from, to, &copy)
        return DKGMessage(from: from, bytes: copy)
    }
}

/// Old parties 1...shares.count (each starting from its share and its
/// commitments) reshare to `threshold` of `parties` new parties, which
/// start from `commitments[0]`; one result per new party. An old party
/// whose round 3 fails sends nothing more; its error goes into
/// `failedDealers`, by id.
func runReshare(
    shares: [KeyShare], commitments: [Commitments], threshold: Int, parties: Int, session: [UInt8],
    failedDealers: inout [UInt16: OblivexError], _ tamper: DKGTamper = { _, _, _, _ in }
) throws -> [Result<DKGOutput, OblivexError>] {
    let oldParties = shares.count
    var dealers: [Slot<ReshareDealerRound1>] = []
    var dealt: [[UInt8]] = []
    var pairs: [[DKGSharePair]] = []
    for (share, theirs) in zip(shares, commitments) {
        let start = try ReshareDealerRound1(resharing: share, commitments: theirs, oldParties: oldParties,
                                            threshold: threshold, parties: parties, session: session)
        dealt.append(start.broadcast)
        pairs.append(start.shares)
        dealers.append(Slot(start))
    }
    // Round 2: each new party takes every old party's commitments and the
    // pair it was dealt.
    var receivers: [Slot<ReshareReceiverRound2>] = []
    var complaints: [[UInt8]] = []
    for to in 1...UInt16(parties) {
        let start = try ReshareReceiverRound1(commitments: commitments[0], oldParties: oldParties,
                                              threshold: threshold, parties: parties, session: session, id: to)
        let mine = pairs.enumerated().map { index, sent in
            let pair = sent[Int(to) - 1]
            #expect(pair.to == to)
            var copy = pair.bytes
            tamper(.sharePair, UInt16(index + 1), to, &copy)
            return DKGMessage(from: UInt16(index + 1), bytes: copy)
        }
        let next = try start.round2(commitments: everyone(.commitments, to: to, dealt, tamper), shares: mine)
        complaints.append(next.broadcast)
        receivers.append(Slot(next))
    }
    // Rounds 3 and 4: the old parties answer every complaint, then publish
    // their Feldman commitments; the new parties fix QUAL.
    var justifications: [[UInt8]] = []
    var feldman: [[UInt8]] = []
    for (index, slot) in dealers.enumerated() {
        let id = UInt16(index + 1)
        do {
            let next = try slot.take().round3(everyone(.complaints, to: id, complaints, tamper))
            justifications.append(next.broadcast)
            feldman.append(try next.round4())
        } catch {
            failedDealers[id] = error
            justifications.append([])  // nothing arrives from it
            feldman.append([])
        }
    }
    var round5: [Slot<DKGRound5>] = []
    var broadcasts: [[UInt8]] = []
    for (index, slot) in receivers.enumerated() {
        let to = UInt16(index + 1)
        let round3 = try slot.take().round3(inbox(.complaints, to: to, complaints, tamper))
        let round4 = try round3.round4(everyone(.justifications, to: to, justifications, tamper))
        #expect(round4.broadcast.isEmpty)
        let next = try round4.round5(everyone(.feldman, to: to, feldman, tamper))
        broadcasts.append(next.broadcast)
        round5.append(Slot(next))
    }
    return try finishDKG(round5, broadcasts: broadcasts, tamper)
}

@Suite("resharing a DKG's key")
struct DKGReshareTests {
    @Test("(3, 5) to (2, 3) keeps the public key and the threshold OPRF outputs")
    func keepsTheKey() throws {
        let results = try runNewKey(threshold: 3, parties: 5, session: [UInt8](repeating: 0x51, count: Library.dkgSessionIDLength))
        let outputs = try agreed(results, who: allFive, qualified: allFive, blame: [])
        let items = inputs(2)
        let want = try thresholdOutputs(outputs, items)
        var failedDealers: [UInt16: OblivexError] = [:]
        let reshared = try agreed(
            try runReshare(shares: outputs.map(\.share), commitments: outputs.map(\.commitments), threshold: 2,
                           parties: 3, session: [UInt8](repeating: 0x52, count: Library.dkgSessionIDLength),
                           failedDealers: &failedDealers),
            who: [1, 2, 3], qualified: allFive, blame: [])
        #expect(failedDealers.isEmpty)
        #expect(reshared[0].commitments.threshold == 2)
        #expect(reshared[0].commitments.publicKey == outputs[0].commitments.publicKey)
        #expect(throws: OblivexError.verificationFailed(cheaters: [])) { try reshared[0].commitments.verify(outputs[0].share) }
        #expect(try thresholdOutputs(reshared, items) == want)
    }

    @Test("an old party started from another key's sharing is named by every new party, and told")
    func otherOldCommitments() throws {
        let results = try runNewKey(threshold: 3, parties: 5, session: [UInt8](repeating: 0x53, count: Library.dkgSessionIDLength))
        let outputs = try agreed(results, who: allFive, qualified: allFive, blame: [])
        let items = inputs(2)
        let want = try thresholdOutputs(outputs, items)
        // Old party 5 deals its share of another key (valid for that key's
        // commitments, so it starts) instead of its own: its messages name
        // other old commitments, so the new parties disqualify it, and it
        // learns of the mismatch from their complaints.
        let other = try KeyShare.deal(suite: .ristretto255, threshold: 3, parties: 5)
        var shares = outputs.map(\.share)
        var commitments = outputs.map(\.commitments)
        shares[4] = other.shares[4]
        commitments[4] = other.commitments
        let blame = [
            DKGBlame(party: 5, offence: .broadcastInvalid, detail: 1, error: .oldCommitmentsMismatch),
            DKGBlame(party: 5, offence: .broadcastMissing, detail: 3, error: nil),  // no justifications
        ]
        var failedDealers: [UInt16: OblivexError] = [:]
        let reshared = try agreed(
            try runReshare(shares: shares, commitments: commitments, threshold: 2, parties: 3,
                           session: [UInt8](repeating: 0x54, count: Library.dkgSessionIDLength),
                           failedDealers: &failedDealers),
            who: [1, 2, 3], qualified: [1, 2, 3, 4], blame: blame)
        #expect(failedDealers == [5: .oldCommitmentsMismatch])
        #expect(try thresholdOutputs(reshared, items) == want)
    }

    @Test("bad arguments are refused with their own errors")
    func badArguments() throws {
        let session = [UInt8](repeating: 0, count: Library.dkgSessionIDLength)
        let (shares, commitments) = try KeyShare.deal(suite: .ristretto255, threshold: 3, parties: 5)
        let other = try KeyShare.deal(suite: .ristretto255, threshold: 3, parties: 5).commitments
        #expect(throws: OblivexError.shareMismatch) {
            _ = try ReshareDealerRound1(resharing: shares[0], commitments: other, oldParties: 5, threshold: 2,
                                        parties: 3, session: session)
        }
        #expect(throws: OblivexError.invalidThreshold) {
            _ = try ReshareDealerRound1(resharing: shares[0], commitments: commitments, oldParties: 4, threshold: 2,
                                        parties: 3, session: session)
        }
        #expect(throws: OblivexError.invalidPartyID) {
            _ = try ReshareReceiverRound1(commitments: commitments, oldParties: 5, threshold: 2, parties: 3,
                                          session: session, id: 4)
        }
        let dealer = try ReshareDealerRound1(resharing: shares[1], commitments: commitments, oldParties: 5,
                                             threshold: 2, parties: 3, session: session)
        #expect(dealer.shares.map(\.to) == [1, 2, 3])
        let receiver = Slot(try ReshareReceiverRound1(commitments: commitments, oldParties: 5, threshold: 2,
                                                      parties: 3, session: session, id: 2))
        #expect(throws: OblivexError.invalidPartyID) {
            _ = try receiver.take().round2(commitments: [DKGMessage(from: 6, bytes: [1])], shares: [])
        }
    }
}
