import Oblivex
import Testing

/// The messages of a DKG step, for tampering.
enum DKGStep {
    case commitments, sharePair, complaints, justifications, feldman, feldmanComplaints, reveals
}

/// What the network does to the copy of a message `from` sends `to`.
typealias DKGTamper = (DKGStep, UInt16, UInt16, inout [UInt8]) -> Void

/// A round state in a class, so that a run's n states fit an array (an
/// array holds only copyable values); taken out once.
final class Slot<State: ~Copyable> {
    private var state: State?

    init(_ state: consuming State) {
        self.state = consume state
    }

    func take() -> State {
        state.take()!
    }
}

/// What party `to` receives of everyone's broadcasts (`broadcasts[i]` is
/// party i + 1's).
func inbox(_ step: DKGStep, to: UInt16, _ broadcasts: [[UInt8]], _ tamper: DKGTamper) -> [DKGMessage] {
    broadcasts.indices.compactMap { index in
        let from = UInt16(index + 1)
        guard from != to else { return nil }
        var copy = broadcasts[index]
        tamper(step, from, to, &copy)
        return DKGMessage(from: from, bytes: copy)
    }
}

/// Runs one round at every party on the others' last broadcasts, then
/// records each party's new one.
func stepAll<State: ~Copyable, Next: ~Copyable>(
    _ slots: [Slot<State>], _ step: DKGStep, _ broadcasts: inout [[UInt8]], _ tamper: DKGTamper,
    _ next: (consuming State, [DKGMessage], UInt16) throws -> Next, _ sent: (borrowing Next) -> [UInt8]
) rethrows -> [Slot<Next>] {
    let last = broadcasts
    var out: [Slot<Next>] = []
    for (index, slot) in slots.enumerated() {
        let to = UInt16(index + 1)
        let state = try next(slot.take(), inbox(step, to: to, last, tamper), to)
        broadcasts[index] = sent(state)
        out.append(Slot(state))
    }
    return out
}

/// Runs started parties (with their round-1 messages) to the end; one
/// result per party.
func runDKG(
    _ starts: [Slot<DKGRound1>], broadcasts first: [[UInt8]], shares: [[DKGSharePair]], _ tamper: DKGTamper
) throws -> [Result<DKGOutput, OblivexError>] {
    var broadcasts = first
    let round2: [Slot<DKGRound2>] = try stepAll(starts, .commitments, &broadcasts, tamper, { start, commitments, to in
        // Round 2 takes the private share pairs too.
        var pairs: [DKGMessage] = []
        for (from, sent) in shares.enumerated() {
            for pair in sent where pair.to == to {
                var copy = pair.bytes
                tamper(.sharePair, UInt16(from + 1), to, &copy)
                pairs.append(DKGMessage(from: UInt16(from + 1), bytes: copy))
            }
        }
        return try start.round2(commitments: commitments, shares: pairs)
    }, { $0.broadcast })
    let round3: [Slot<DKGRound3>] = try stepAll(round2, .complaints, &broadcasts, tamper, { state, messages, _ in try state.round3(messages) }, { $0.broadcast })
    let round4: [Slot<DKGRound4>] = try stepAll(round3, .justifications, &broadcasts, tamper, { state, messages, _ in try state.round4(messages) }, { $0.broadcast })
    let round5: [Slot<DKGRound5>] = try stepAll(round4, .feldman, &broadcasts, tamper, { state, messages, _ in try state.round5(messages) }, { $0.broadcast })
    return try finishDKG(round5, broadcasts: broadcasts, tamper)
}

/// Runs parties after round 5 (`broadcasts`: their Feldman complaints) to
/// the end; one result per party.
func finishDKG(
    _ round5: [Slot<DKGRound5>], broadcasts first: [[UInt8]], _ tamper: DKGTamper
) throws -> [Result<DKGOutput, OblivexError>] {
    var broadcasts = first
    let round6: [Slot<DKGRound6>] = try stepAll(round5, .feldmanComplaints, &broadcasts, tamper, { state, messages, _ in try state.round6(messages) }, { $0.broadcast })
    let sent6 = broadcasts
    return round6.enumerated().map { index, slot in
        let reveals = inbox(.reveals, to: UInt16(index + 1), sent6, tamper)
        return Result { () throws(OblivexError) -> DKGOutput in try slot.take().finalize(reveals) }
    }
}

/// Starts `parties` parties of a new key of `suite` and runs them.
func runNewKey(
    suite: Suite = .ristretto255, threshold: Int, parties: Int, session: [UInt8], _ tamper: DKGTamper = { _, _, _, _ in }
) throws -> [Result<DKGOutput, OblivexError>] {
    var starts: [Slot<DKGRound1>] = []
    var broadcasts: [[UInt8]] = []
    var shares: [[DKGSharePair]] = []
    for id in 1...UInt16(parties) {
        let start = try DKGRound1(suite: suite, threshold: threshold, parties: parties, session: session, id: id)
        broadcasts.append(start.broadcast)
        shares.append(start.shares)
        starts.append(Slot(start))
    }
    return try runDKG(starts, broadcasts: broadcasts, shares: shares, tamper)
}

/// The outputs of parties `who`, which must agree: the same commitments,
/// QUAL and blame list, and shares that match.
func agreed(_ results: [Result<DKGOutput, OblivexError>], who: [UInt16], qualified: [UInt16], blame: [DKGBlame])
    throws -> [DKGOutput] {
    let outputs = try who.map { try results[Int($0) - 1].get() }
    let first = try outputs[0].commitments.bytes()
    for (id, output) in zip(who, outputs) {
        #expect(output.share.id == id)
        try output.commitments.verify(output.share)
        #expect(try output.commitments.bytes() == first)
        #expect(output.qualified == qualified)
        #expect(output.blame == blame)
    }
    return outputs
}

/// The ristretto255 group order, big-endian.
let ristrettoOrder = ReferenceBigUInt(bytes: unhex("1000000000000000000000000000000014def9dea2f79cd65812631a5cf5d3ed"))

/// The key shares 1, 2 and 3 reconstruct (Lagrange at 0: 3, q − 3, 1;
/// little-endian scalars): the test's privilege, no party's.
func reconstructKey(_ outputs: [DKGOutput]) throws -> [UInt8] {
    let minusThree = ReferenceBigUInt(bytes: unhex("1000000000000000000000000000000014def9dea2f79cd65812631a5cf5d3ea"))
    let lambdas = [ReferenceBigUInt(3), minusThree, ReferenceBigUInt(1)]
    var key = ReferenceBigUInt(0)
    for (output, lambda) in zip(outputs.prefix(3), lambdas) {
        var bytes = try output.share.bytes()
        key = (key + lambda * ReferenceBigUInt(bytes: bytes.dropFirst(2).reversed())) % ristrettoOrder
        bytes.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }
    return Array(key.bytes(count: 32).reversed())
}

/// The threshold OPRF outputs of `items` with every party's share.
func thresholdOutputs(_ outputs: [DKGOutput], _ items: [[UInt8]]) throws -> [[UInt8]] {
    let batch = try ThresholdOPRFClient(commitments: outputs[0].commitments).blind(items)
    let responses = try respond(outputs.map(\.share), batch.request, ids: outputs.map(\.share.id))
    let result = try batch.finalize(responses)
    #expect(result.cheaters.isEmpty)
    return result.outputs
}

@Suite("distributed key generation")
struct DKGTests {
    @Test("an honest (3, 5) run feeds the threshold OPRF; a refresh keeps the key")
    func honestRun() throws {
        let results = try runNewKey(threshold: 3, parties: 5, session: [UInt8](repeating: 0x41, count: Library.dkgSessionIDLength))
        let outputs = try agreed(results, who: allFive, qualified: allFive, blame: [])

        var key = try reconstructKey(outputs)
        let single = try OPRFServer(suite: .ristretto255, secretKey: key)
        key.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        #expect(single.publicKey == outputs[0].commitments.publicKey)
        let items = inputs(3)
        let plain = try OPRFClient(suite: .ristretto255).blind(items)
        let evaluated = try single.evaluate(plain.request)
        let want = try plain.finalize(evaluated)
        #expect(try thresholdOutputs(outputs, items) == want)

        // A refresh: the same public key and outputs, new shares.
        let session = [UInt8](repeating: 0x42, count: Library.dkgSessionIDLength)
        var starts: [Slot<DKGRound1>] = []
        var broadcasts: [[UInt8]] = []
        var shares: [[DKGSharePair]] = []
        for output in outputs {
            let start = try DKGRound1(refreshing: output.share, commitments: output.commitments, parties: 5, session: session)
            broadcasts.append(start.broadcast)
            shares.append(start.shares)
            starts.append(Slot(start))
        }
        let refreshed = try agreed(try runDKG(starts, broadcasts: broadcasts, shares: shares) { _, _, _, _ in },
                                   who: allFive, qualified: allFive, blame: [])
        #expect(refreshed[0].commitments.publicKey == outputs[0].commitments.publicKey)
        #expect(throws: OblivexError.verificationFailed(cheaters: [])) { try refreshed[0].commitments.verify(outputs[0].share) }
        #expect(try thresholdOutputs(refreshed, items) == want)
    }

    @Test("a BLS key set from the signers' published G2 keys; a wrong key is named")
    func blsKeySetFromSignerKeys() throws {
        let results = try runNewKey(suite: .bls12381G1, threshold: 3, parties: 5,
                                    session: [UInt8](repeating: 0x44, count: Library.dkgSessionIDLength))
        let outputs = try agreed(results, who: allFive, qualified: allFive, blame: [])
        let published = try outputs.map { ThresholdResponse(party: $0.share.id, elements: try $0.share.blsSignerKey().bytes) }
        let (keySet, cheaters) = try BLSKeySet.derive(commitments: outputs[0].commitments, parties: 5, signerKeys: published)
        #expect(cheaters.isEmpty)
        let batch = try BLSClient(keySet: keySet).blind([Array("dkg".utf8)])
        let responses = try respond(outputs.map(\.share), batch.request, ids: allFive)
        let signatures = try batch.finalize(responses).signatures
        #expect(keySet.publicKey.isValidSignature(signatures[0], for: Array("dkg".utf8)))

        // Party 2 publishes party 1's key: named, and the key set is the same.
        var wrong = published
        wrong[1].elements = published[0].elements
        let again = try BLSKeySet.derive(commitments: outputs[0].commitments, parties: 5, signerKeys: wrong)
        #expect(again.cheaters == [2])
        #expect(again.keySet.publicKey == keySet.publicKey)
        #expect(throws: OblivexError.notEnoughResponses(cheaters: [2])) {
            _ = try BLSKeySet.derive(commitments: outputs[0].commitments, parties: 5, signerKeys: Array(wrong.prefix(3)))
        }
        #expect(throws: OblivexError.suiteMismatch) {
            _ = try KeyShare.deal(suite: .ristretto255, threshold: 2, parties: 3).shares[0].blsSignerKey()
        }
    }

    @Test("a party that withholds its broadcast is named by every honest party")
    func withheldBroadcast() throws {
        // Party 4 sends no Pedersen commitments: disqualified in round 1.
        let results = try runNewKey(threshold: 3, parties: 5, session: [UInt8](repeating: 0x43, count: Library.dkgSessionIDLength)) {
            step, from, _, message in
            if step == .commitments && from == 4 {
                message = []
            }
        }
        let blame = [DKGBlame(party: 4, offence: .broadcastMissing, detail: 1, error: nil)]
        _ = try agreed(results, who: [1, 2, 3, 5], qualified: [1, 2, 3, 5], blame: blame)
    }

    @Test("bad arguments are refused with their own errors")
    func badArguments() throws {
        let session = [UInt8](repeating: 0, count: Library.dkgSessionIDLength)
        #expect(throws: OblivexError.invalidThreshold) {
            _ = try DKGRound1(suite: .ristretto255, threshold: 3, parties: 4, session: session, id: 1)
        }
        #expect(throws: OblivexError.badLength) {
            _ = try DKGRound1(suite: .ristretto255, threshold: 3, parties: 5, session: session.dropFirst(), id: 1)
        }
        #expect(throws: OblivexError.invalidPartyID) {
            _ = try DKGRound1(suite: .ristretto255, threshold: 3, parties: 5, session: session, id: 0)
        }
        let start = try DKGRound1(suite: .ristretto255, threshold: 3, parties: 5, session: session, id: 1)
        #expect(start.shares.map(\.to) == [2, 3, 4, 5])
        let twice = [DKGMessage(from: 2, bytes: [1]), DKGMessage(from: 2, bytes: [2])]
        let slot = Slot(start)
        #expect(throws: OblivexError.duplicateMessage) { _ = try slot.take().round2(commitments: twice, shares: []) }
        let (shares, commitments) = try KeyShare.deal(suite: .ristretto255, threshold: 3, parties: 5)
        let other = try KeyShare.deal(suite: .ristretto255, threshold: 3, parties: 5).commitments
        #expect(throws: OblivexError.shareMismatch) {
            _ = try DKGRound1(refreshing: shares[0], commitments: other, parties: 5, session: session)
        }
        #expect(throws: OblivexError.invalidThreshold) {
            _ = try DKGRound1(refreshing: shares[0], commitments: commitments, parties: 4, session: session)
        }
    }
}
