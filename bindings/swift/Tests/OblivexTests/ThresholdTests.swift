import Oblivex
import Testing

@Suite("threshold sharing, OPRF, BLS, ElGamal")
struct ThresholdTests {
    @Test("dealing, key shares and commitments to and from bytes")
    func sharing() throws {
        let (shares, commitments) = try KeyShare.deal(suite: .p256, threshold: 3, parties: 5)
        #expect(commitments.threshold == 3 && commitments.suite == .p256 && commitments.publicKey.suite == .p256)
        #expect(shares.map(\.id) == allFive && shares.allSatisfy { $0.suite == .p256 })
        for (index, share) in shares.enumerated() {
            var encoded = try share.bytes()
            #expect(encoded.count == 2 + Suite.p256.scalarLength)
            let copy = try KeyShare(suite: .p256, bytes: encoded)
            #expect(copy.id == share.id)
            try commitments.verify(copy)
            encoded[0] = 0
            encoded[1] = UInt8((index + 1) % 5 + 1) // the next party's id
            let moved = try KeyShare(suite: .p256, bytes: encoded)
            #expect(throws: OblivexError.verificationFailed(cheaters: [])) { try commitments.verify(moved) }
            encoded.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        }
        let encoded = try commitments.bytes()
        #expect(encoded.count == 3 * Suite.p256.elementLength)
        let parsed = try Commitments(suite: .p256, bytes: encoded)
        #expect(parsed.threshold == 3 && parsed.publicKey == commitments.publicKey)
        #expect(throws: OblivexError.badLength) { try Commitments(suite: .p256, bytes: encoded.dropFirst()) }

        // A given secret: the shared key's public key is the single server's.
        var secret = [UInt8](repeating: 0, count: 32)
        secret[0] = 7
        let single = try OPRFServer(suite: .ristretto255, secretKey: secret)
        let dealt = try KeyShare.deal(suite: .ristretto255, secret: secret, threshold: 2, parties: 3)
        #expect(dealt.commitments.publicKey == single.publicKey)
        // The secret as any collection of bytes: a slice, or one without
        // contiguous storage (copied, the copy wiped).
        let fromSlice = try KeyShare.deal(suite: .ristretto255, secret: secret[...], threshold: 2, parties: 3)
        let fromLazy = try KeyShare.deal(suite: .ristretto255, secret: secret.lazy.map { $0 }, threshold: 1, parties: 1)
        #expect(fromSlice.commitments.publicKey == single.publicKey && fromLazy.commitments.publicKey == single.publicKey)
        #expect(throws: OblivexError.invalidScalar) { try KeyShare.deal(suite: .p256, secret: secret.prefix(0), threshold: 1, parties: 1) }
        #expect(ThresholdResponse(party: 2, elements: "ab".utf8) == ThresholdResponse(party: 2, elements: [0x61, 0x62]))
        #expect(throws: OblivexError.suiteMismatch) { try commitments.verify(dealt.shares[0]) }
    }

    @Test("threshold OPRF: honest, cheaters named, quorums")
    func thresholdOPRF() throws {
        var secret = [UInt8](repeating: 0, count: 32)
        secret[0] = 7
        let (shares, commitments) = try KeyShare.deal(suite: .ristretto255, secret: secret, threshold: 3, parties: 5)
        let single = try OPRFServer(suite: .ristretto255, secretKey: secret)
        let items = inputs(4)
        let plain = try OPRFClient(suite: .ristretto255).blind(items)
        let plainResponse = try single.evaluate(plain.request)
        let want = try plain.finalize(plainResponse)

        func run(ids: [UInt16], quorum: [UInt16] = [], cheat: Set<UInt16> = []) throws -> (outputs: [[UInt8]], cheaters: [UInt16]) {
            let client = try ThresholdOPRFClient(commitments: commitments, quorum: quorum)
            let batch = try client.blind(items)
            #expect(batch.request.count == (items.count + 1) * Suite.ristretto255.elementLength)
            let responses = try respond(shares, batch.request, quorum: quorum, ids: ids, cheat: cheat)
            return try batch.finalize(responses)
        }
        let honest = try run(ids: allFive)
        #expect(honest.outputs == want && honest.cheaters.isEmpty)
        let oneCheater = try run(ids: allFive, cheat: [4])
        #expect(oneCheater.outputs == want && oneCheater.cheaters == [4])
        #expect(throws: OblivexError.notEnoughResponses(cheaters: [1, 2, 5])) { try run(ids: allFive, cheat: [1, 2, 5]) }
        let quorum: [UInt16] = [2, 3, 5]
        #expect(try run(ids: quorum, quorum: quorum).outputs == want)
        #expect(throws: OblivexError.verificationFailed(cheaters: [3])) { try run(ids: quorum, quorum: quorum, cheat: [3]) }

        // The cheater list travels in the error.
        do {
            _ = try run(ids: allFive, cheat: [1, 2, 5])
            Issue.record("three cheaters of five passed")
        } catch let error as OblivexError {
            guard case .notEnoughResponses(let cheaters) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(cheaters == [1, 2, 5] && error.cheaters == cheaters)
            #expect(error.description.hasSuffix("(servers caught cheating: 1, 2, 5)"))
        }

        // Each response checked as it arrives, without spending the batch;
        // then the first three that passed.
        let arriving = try ThresholdOPRFClient(commitments: commitments).blind(items)
        let answers = try respond(shares, arriving.request, ids: allFive, cheat: [2])
        var passed: [ThresholdResponse] = []
        for answer in answers + [ThresholdResponse(party: 0, elements: answers[0].elements)] {
            do {
                try arriving.check(answer)
                passed.append(answer)
            } catch {
                #expect(error == (answer.party == 0 ? .invalidPartyID : .verificationFailed(cheaters: [2])))
            }
        }
        #expect(passed.map(\.party) == [1, 3, 4, 5])
        let firstThree = try arriving.finalize(Array(passed.prefix(3)))
        #expect(firstThree.outputs == want && firstThree.cheaters.isEmpty)

        // No answer at all: not enough, nobody named.
        let client = try ThresholdOPRFClient(commitments: commitments, kappa: 64)
        #expect(client.kappa == 64 && client.quorum.isEmpty && client.commitments === commitments)
        let empty = try client.blind(items)
        let none = finalizeError(empty) { try $0.finalize([]) }
        #expect(none == .notEnoughResponses(cheaters: []))

        // Refused up front: a repeated id, id 0, a server outside the quorum.
        let repeated = try client.blind(items)
        let rs = try respond(shares, repeated.request, ids: [1, 2, 3])
        #expect(finalizeError(repeated) { try $0.finalize(rs + [rs[0]]) } == .invalidPartyID)
        let zero = try client.blind(items)
        #expect(finalizeError(zero) { try $0.finalize(rs + [ThresholdResponse(party: 0, elements: [])]) } == .invalidPartyID)
        let quorumClient = try ThresholdOPRFClient(commitments: commitments, quorum: quorum)
        let outsider = try quorumClient.blind(items)
        let qrs = try respond(shares, outsider.request, quorum: quorum, ids: quorum)
        let extra = try respond(shares, outsider.request, ids: [1])
        #expect(finalizeError(outsider) { try $0.finalize(qrs + extra) } == .invalidPartyID)
    }

    @Test("threshold blind BLS: deal, key set, sign, verify")
    func bls() throws {
        let (shares, keySet) = try BLSKeySet.deal(threshold: 3, parties: 5)
        #expect(keySet.threshold == 3 && keySet.parties == 5 && shares[0].suite == .bls12381G1)
        let encoded = try keySet.bytes()
        let parsed = try BLSKeySet(bytes: encoded)
        #expect(parsed.threshold == 3 && parsed.parties == 5 && parsed.publicKey == keySet.publicKey)
        var tampered = encoded
        tampered.replaceSubrange((4 + 96)..<(4 + 192), with: encoded[(4 + 192)..<(4 + 288)])
        #expect(throws: OblivexError.verificationFailed(cheaters: [])) { try BLSKeySet(bytes: tampered) }
        #expect(throws: OblivexError.badLength) { try BLSKeySet(bytes: encoded.prefix(3)) }

        let key = try BLSPublicKey(bytes: parsed.publicKey.bytes)
        #expect(key.bytes.count == BLSPublicKey.length)
        #expect(throws: OblivexError.badLength) { try BLSPublicKey(bytes: key.bytes.dropFirst()) }
        #expect(throws: OblivexError.invalidElement) {
            try BLSPublicKey(bytes: [UInt8](repeating: 0xff, count: BLSPublicKey.length))
        }

        let messages = inputs(3)
        let client = try BLSClient(keySet: parsed)
        let batch = try client.blind(messages)
        let responses = try respond(shares, batch.request, ids: allFive, cheat: [2])
        let (signatures, cheaters) = try batch.finalize(responses)
        #expect(cheaters == [2] && signatures.count == 3)
        for (message, signature) in zip(messages, signatures) {
            #expect(signature.count == BLSPublicKey.signatureLength)
            try key.verify(signature, for: message)
            #expect(key.isValidSignature(signature, for: message))
        }
        #expect(throws: OblivexError.verificationFailed(cheaters: [])) { try key.verify(signatures[0], for: "other".utf8) }
        #expect(throws: OblivexError.verificationFailed(cheaters: [])) { try key.verify(signatures[0].dropFirst(), for: messages[0]) }

        let cheated = try client.blind(messages)
        let bad = try respond(shares, cheated.request, ids: allFive, cheat: [1, 3, 4])
        #expect(finalizeError(cheated) { try $0.finalize(bad) } == .notEnoughResponses(cheaters: [1, 3, 4]))

        // With a quorum and κ 128; a given secret gives the same public key.
        let quorum: [UInt16] = [1, 4, 5]
        let quorumClient = try BLSClient(keySet: keySet, quorum: quorum, kappa: 128)
        let one = try quorumClient.blind(messages.prefix(1))
        let quorumResponses = try respond(shares, one.request, quorum: quorum, ids: quorum)
        let signed = try one.finalize(quorumResponses)
        try keySet.publicKey.verify(signed.signatures[0], for: messages[0])
        var secret = [UInt8](repeating: 0, count: 32)
        secret[31] = 9
        let a = try BLSKeySet.deal(secret: secret, threshold: 1, parties: 2)
        let b = try BLSKeySet.deal(secret: secret, threshold: 2, parties: 2)
        #expect(a.keySet.publicKey == b.keySet.publicKey)
        let c = try BLSKeySet.deal(secret: secret.lazy.map { $0 }, threshold: 1, parties: 1)
        #expect(c.keySet.publicKey == a.keySet.publicKey)
    }

    @Test("threshold ElGamal: encrypt, encapsulate, decrypt", arguments: [Suite.ristretto255, .p256, .ffdhe2048])
    func elGamal(suite: Suite) throws {
        let (shares, commitments) = try KeyShare.deal(suite: suite, threshold: 2, parties: 3)
        let key = commitments.publicKey
        var messages: [[UInt8]] = [], ciphertexts: [[UInt8]] = [], encapsulations: [[UInt8]] = [], secrets: [[UInt8]] = []
        for _ in 0..<3 {
            let message = try ElGamal.encapsulate(to: key).encapsulation // a fresh element to encrypt
            messages.append(message)
            ciphertexts.append(try ElGamal.encrypt(message, to: key))
            let (encapsulation, secret) = try ElGamal.encapsulate(to: key)
            #expect(encapsulation.count == suite.elementLength && secret.count == suite.outputLength)
            encapsulations.append(encapsulation)
            secrets.append(secret)
        }
        #expect(ciphertexts.allSatisfy { $0.count == 2 * suite.elementLength })
        for blinded in [false, true] {
            let client = try ElGamalClient(commitments: commitments, target: .plaintexts, blinded: blinded)
            let batch = try client.blind(ciphertexts)
            #expect(batch.outputLength == suite.elementLength && batch.count == 3)
            let responses = try respond(shares, batch.request, ids: [1, 2, 3], cheat: [3])
            let (plaintexts, cheaters) = try batch.finalize(responses)
            #expect(plaintexts == messages && cheaters == [3])

            let kem = try ElGamalClient(commitments: commitments, target: .kemSecrets, blinded: blinded, quorum: [1, 3])
            let kemBatch = try kem.blind(encapsulations)
            #expect(kemBatch.outputLength == suite.outputLength)
            let kemResponses = try respond(shares, kemBatch.request, quorum: [1, 3], ids: [1, 3])
            #expect(try kemBatch.finalize(kemResponses).outputs == secrets)
        }
        #expect(throws: OblivexError.invalidElement) {
            try ElGamal.encrypt([UInt8](repeating: 0, count: suite.elementLength), to: key)
        }
        let client = try ElGamalClient(commitments: commitments, target: .plaintexts)
        #expect(throws: OblivexError.badLength) { _ = try client.blind(encapsulations) }
        #expect(throws: OblivexError.badLength) { _ = try client.blind([ciphertexts[0], encapsulations[0]]) }
        #expect(throws: OblivexError.emptyInput) { _ = try client.blind([[UInt8]]()) }
    }

    /// A ciphertext whose plaintext is the identity (c2 = k·c1) fails the
    /// whole batch with invalidInput, and the servers already caught are
    /// named in it.
    @Test("ElGamal: an identity plaintext names the cheaters")
    func elGamalIdentityPlaintext() throws {
        var secret = [UInt8](repeating: 0, count: 32)
        secret[31] = 5
        let (shares, commitments) = try KeyShare.deal(suite: .p256, secret: secret, threshold: 2, parties: 3)
        let raise = try OPRFServer(suite: .p256, secretKey: secret) // raises elements to the shared key
        let c1 = try ElGamal.encapsulate(to: commitments.publicKey).encapsulation
        let c2 = try raise.evaluate(c1)
        let message = try ElGamal.encapsulate(to: commitments.publicKey).encapsulation
        let valid = try ElGamal.encrypt(message, to: commitments.publicKey)
        let client = try ElGamalClient(commitments: commitments, target: .plaintexts)
        let batch = try client.blind([valid, c1 + c2])
        let responses = try respond(shares, batch.request, ids: [1, 2, 3], cheat: [2])
        #expect(finalizeError(batch) { try $0.finalize(responses) } == .invalidInput(cheaters: [2]))
    }
}
