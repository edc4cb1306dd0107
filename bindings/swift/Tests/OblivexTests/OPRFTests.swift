import Oblivex
import Testing

@Suite("OPRF, VOPRF, POPRF")
struct OPRFTests {
    /// VOPRF: another server's answer with its own valid proof is caught;
    /// an empty or short proof, or a short answer, is refused.
    @Test("VOPRF proofs are checked", arguments: [Suite.p256, .ristretto255, .ffdhe2048])
    func voprfProof(suite: Suite) throws {
        let server = try VOPRFServer.generate(suite: suite)
        let other = try VOPRFServer.generate(suite: suite)
        let client = VOPRFClient(publicKey: server.publicKey)
        #expect(client.suite == suite && client.mode == .voprf && client.publicKey == server.publicKey)

        var batch = try client.blind(inputs(2))
        let (evaluated, proof) = try server.evaluate(batch.request)
        #expect(proof.count == suite.proofLength)
        let noProof = finalizeError(batch) { try $0.finalize(evaluated, proof: [UInt8]()) }
        #expect(noProof == .missingProof)

        batch = try client.blind(inputs(2))
        let answer = try server.evaluate(batch.request)
        let shortProof = finalizeError(batch) { try $0.finalize(answer.evaluated, proof: answer.proof.dropFirst()) }
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
        #expect(try batch.finalize(again.evaluated, proof: again.proof[...]) == outputs)
    }

    /// POPRF: the info tweaks the key; client and server must agree on it.
    @Test("POPRF info")
    func poprfInfo() throws {
        let server = try POPRFServer.generate(suite: .ristretto255)
        let client = POPRFClient(publicKey: server.publicKey)
        #expect(server.mode == .poprf && client.mode == .poprf && client.suite == .ristretto255)
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

        let tooLong = [UInt8](repeating: 0, count: Library.maxInputLength + 1)
        #expect(throws: OblivexError.badLength) { _ = try client.blind(inputs(1), info: tooLong) }
        let batch = try client.blind(inputs(1), info: "a".utf8)
        #expect(throws: OblivexError.badLength) { try server.evaluate(batch.request, info: tooLong) }
    }

    /// Each mode's types report their mode; one secret key gives the same
    /// public key in every mode's server, and different outputs (RFC 9497
    /// puts the mode in its context string).
    @Test("each mode's server and client")
    func modes() throws {
        let oprf = try OPRFServer.generate(suite: .p256)
        let secretKey = try oprf.secretKey()
        let voprf = try VOPRFServer(suite: .p256, secretKey: secretKey)
        let poprf = try POPRFServer(suite: .p256, secretKey: secretKey)
        #expect(voprf.publicKey == oprf.publicKey && poprf.publicKey == oprf.publicKey)
        #expect([oprf.mode, voprf.mode, poprf.mode] == [.oprf, .voprf, .poprf])
        #expect(OPRFClient(suite: .p256).mode == .oprf)

        let plain = try OPRFClient(suite: .p256).blind(inputs(2))
        let plainAnswer = try oprf.evaluate(plain.request)
        let plainOutputs = try plain.finalize(plainAnswer)
        let verified = try VOPRFClient(publicKey: voprf.publicKey).blind(inputs(2))
        let answer = try voprf.evaluate(verified.request)
        let verifiedOutputs = try verified.finalize(answer.evaluated, proof: answer.proof)
        #expect(plainOutputs.count == 2 && verifiedOutputs.count == 2 && plainOutputs != verifiedOutputs)
    }

    @Test("public keys are validated", arguments: Suite.allCases)
    func publicKeys(suite: Suite) throws {
        let server = try OPRFServer.generate(suite: suite)
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
        let server = try OPRFServer.generate(suite: .ristretto255)
        #expect(server.suite == .ristretto255 && server.mode == .oprf)
        let secretKey = try server.secretKey()
        #expect(secretKey.count == Suite.ristretto255.scalarLength)
        #expect(try OPRFServer(suite: .ristretto255, secretKey: secretKey).publicKey == server.publicKey)
        // A collection without contiguous storage is copied (and the copy wiped).
        #expect(try OPRFServer(suite: .ristretto255, secretKey: secretKey.lazy.map { $0 }).publicKey == server.publicKey)

        let client = OPRFClient(suite: .ristretto255)
        #expect(client.mode == .oprf && client.suite == .ristretto255)

        // An empty input is an input; any collection of byte collections works.
        let batch = try client.blind([[UInt8](), []])
        #expect(batch.count == 2)
        let response = try server.evaluate(batch.request)
        let outputs = try batch.finalize(response)
        #expect(outputs.count == 2 && outputs[0] == outputs[1] && outputs[0].count == 64)

        let strings = try client.blind(["alice".utf8, "bob".utf8])
        let stringsResponse = try server.evaluate(strings.request)
        let fromStrings = try strings.finalize(stringsResponse)
        let arrays = try client.blind([Array("alice".utf8), Array("bob".utf8)])
        let arraysResponse = try server.evaluate(arrays.request)
        let fromArrays = try arrays.finalize(arraysResponse)
        #expect(fromArrays == fromStrings)
        let lazy = try client.blind(["alice".utf8, "bob".utf8].lazy.map { $0.lazy.map { $0 } })
        let lazyResponse = try server.evaluate(lazy.request.lazy.map { $0 })
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
