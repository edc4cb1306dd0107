import Oblivex
import Testing

@Suite("OPRF, VOPRF, POPRF")
struct OPRFTests {
    /// VOPRF: another server's answer with its own valid proof is caught;
    /// a missing or short proof, or a short answer, is refused.
    @Test("VOPRF proofs are checked", arguments: [Suite.p256, .ristretto255, .ffdhe2048])
    func voprfProof(suite: Suite) throws {
        let server = try OPRFServer.generate(suite: suite, mode: .voprf)
        let other = try OPRFServer.generate(suite: suite, mode: .voprf)
        let client = try OPRFClient(suite: suite, mode: .voprf, publicKey: server.publicKey)

        var batch = try client.blind(inputs(2))
        let (evaluated, proof) = try server.evaluate(batch.request)
        let proofBytes = try #require(proof)
        let noProof = finalizeError(batch) { try $0.finalize(evaluated) }
        #expect(noProof == .missingProof)

        batch = try client.blind(inputs(2))
        let answer = try server.evaluate(batch.request)
        let shortProof = finalizeError(batch) { try $0.finalize(answer.evaluated, proof: Array(proofBytes.dropFirst())) }
        #expect(shortProof == .badLength)

        batch = try client.blind(inputs(2))
        let answer2 = try server.evaluate(batch.request)
        let shortAnswer = finalizeError(batch) { try $0.finalize(answer2.evaluated.dropFirst(), proof: answer2.proof) }
        #expect(shortAnswer == .badLength)

        batch = try client.blind(inputs(2))
        let forged = try other.evaluate(batch.request)
        let anotherKey = finalizeError(batch) { try $0.finalize(forged.evaluated, proof: forged.proof) }
        #expect(anotherKey == .verificationFailed(cheaters: []))

        batch = try client.blind(inputs(2))
        let honest = try server.evaluate(batch.request)
        let outputs = try batch.finalize(honest.evaluated, proof: honest.proof)
        #expect(outputs.count == 2 && outputs.allSatisfy { $0.count == suite.outputLength })

        // The proof as any collection of bytes (here a slice): the same outputs.
        batch = try client.blind(inputs(2))
        let again = try server.evaluate(batch.request)
        let againProof = try #require(again.proof)
        #expect(try batch.finalize(again.evaluated, proof: againProof[...]) == outputs)
    }

    /// POPRF: the info tweaks the key; client and server must agree on it.
    @Test("POPRF info")
    func poprfInfo() throws {
        let server = try OPRFServer.generate(suite: .ristretto255, mode: .poprf)
        let client = try OPRFClient(suite: .ristretto255, mode: .poprf, publicKey: server.publicKey)
        func run(_ clientInfo: String, _ serverInfo: String) throws(OblivexError) -> [[UInt8]] {
            let batch = try client.blind(inputs(3), info: clientInfo.utf8)
            let (evaluated, proof) = try server.evaluate(batch.request, info: serverInfo.utf8)
            return try batch.finalize(evaluated, proof: proof)
        }
        let a = try run("a", "a")
        let b = try run("b", "b")
        #expect(a[0] != b[0])
        #expect(try run("", "") != a) // an empty info is an info
        #expect(throws: OblivexError.verificationFailed(cheaters: [])) { try run("a", "b") }

        let plain = try OPRFServer.generate(suite: .ristretto255, mode: .oprf)
        let oprf = try OPRFClient(suite: .ristretto255, mode: .oprf)
        let batch = try oprf.blind(inputs(1))
        #expect(throws: OblivexError.badLength) { try plain.evaluate(batch.request, info: "info".utf8) }
        #expect(throws: OblivexError.badLength) { _ = try oprf.blind(inputs(1), info: "info".utf8) }
    }

    @Test("public keys are validated", arguments: Suite.allCases)
    func publicKeys(suite: Suite) throws {
        let server = try OPRFServer.generate(suite: suite, mode: .oprf)
        let key = server.publicKey
        #expect(key.suite == suite && key.bytes.count == suite.elementLength)
        #expect(try PublicKey(suite: suite, bytes: key.bytes) == key)
        #expect(throws: OblivexError.badLength) { try PublicKey(suite: suite, bytes: key.bytes.dropFirst()) }
        #expect(throws: OblivexError.badLength) { try PublicKey(suite: suite, bytes: key.bytes + key.bytes) }
        #expect(throws: OblivexError.invalidElement) {
            try PublicKey(suite: suite, bytes: [UInt8](repeating: 0xff, count: suite.elementLength))
        }
    }

    @Test("servers and clients")
    func serversAndClients() throws {
        let server = try OPRFServer.generate(suite: .ristretto255, mode: .oprf)
        #expect(server.suite == .ristretto255 && server.mode == .oprf)
        let secretKey = try server.secretKey()
        #expect(secretKey.count == Suite.ristretto255.scalarLength)
        #expect(try OPRFServer(suite: .ristretto255, mode: .oprf, secretKey: secretKey).publicKey == server.publicKey)
        // A collection without contiguous storage is copied (and the copy wiped).
        #expect(try OPRFServer(suite: .ristretto255, mode: .oprf, secretKey: secretKey.lazy.map { $0 }).publicKey == server.publicKey)

        // The OPRF client keeps no key, and ignores one of another suite.
        let client = try OPRFClient(suite: .ristretto255, mode: .oprf, publicKey: server.publicKey)
        #expect(client.publicKey == nil && client.mode == .oprf && client.suite == .ristretto255)
        let p256Key = try OPRFServer.generate(suite: .p256, mode: .oprf).publicKey
        #expect(try OPRFClient(suite: .ristretto255, mode: .oprf, publicKey: p256Key).publicKey == nil)

        // An empty input is an input; any collection of byte collections works.
        let batch = try client.blind([[UInt8](), []])
        #expect(batch.count == 2)
        let response = try server.evaluate(batch.request).evaluated
        let outputs = try batch.finalize(response)
        #expect(outputs.count == 2 && outputs[0] == outputs[1] && outputs[0].count == 64)

        let strings = try client.blind(["alice".utf8, "bob".utf8])
        let stringsResponse = try server.evaluate(strings.request).evaluated
        let fromStrings = try strings.finalize(stringsResponse)
        let arrays = try client.blind([Array("alice".utf8), Array("bob".utf8)])
        let arraysResponse = try server.evaluate(arrays.request).evaluated
        let fromArrays = try arrays.finalize(arraysResponse)
        #expect(fromArrays == fromStrings)
        let lazy = try client.blind(["alice".utf8, "bob".utf8].lazy.map { $0.lazy.map { $0 } })
        let lazyResponse = try server.evaluate(lazy.request.lazy.map { $0 }).evaluated
        #expect(try lazy.finalize(lazyResponse[...]) == fromStrings)

        // A batch never finalized is freed (and its blinds wiped) when it
        // goes out of scope.
        _ = try client.blind(inputs(1))
    }

    @Test("suite sizes and names")
    func sizesAndNames() {
        #expect(Suite.p256.elementLength == 33 && Suite.p256.scalarLength == 32)
        #expect(Suite.p256.outputLength == 32 && Suite.p256.proofLength == 64)
        #expect(Suite.ffdhe4096.elementLength == 512 && Suite.ffdhe4096.proofLength == 1024)
        #expect(Suite.allCases.map(\.description) == [
            "ristretto255-SHA512", "P256-SHA256", "BLS12381G1-SHA256",
            "FFDHE2048-SHA512", "FFDHE3072-SHA512", "FFDHE4096-SHA512",
        ])
        #expect(Suite.allCases.allSatisfy { Suite(identifier: $0.description) == $0 })
        #expect(Suite(identifier: "nope") == nil && Suite(rawValue: 99) == nil)
        #expect(Mode.allCases.map(\.description) == ["OPRF", "VOPRF", "POPRF"])
        #expect(Check.keyFree.description == "KeyFree" && ElGamalTarget.kemSecrets.description == "KEMSecrets")
    }
}
