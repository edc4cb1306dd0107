import Oblivex
import Testing

@Suite("checked batch OPRF")
struct CheckedTests {
    /// Both checks on several suites: outputs equal the plain OPRF's; a
    /// server that evaluates one element with another key, or whose response
    /// is tampered with, is caught and gives no output.
    @Test("both checks catch a cheating server", arguments: [Suite.ristretto255, .p256, .bls12381G1, .ffdhe2048])
    func checked(suite: Suite) throws {
        let server = try OPRFServer.generate(suite: suite)
        let other = try OPRFServer.generate(suite: suite)
        let items = inputs(5)
        let plain = try OPRFClient(suite: suite).blind(items)
        let plainResponse = try server.evaluate(plain.request)
        let want = try plain.finalize(plainResponse)
        let width = suite.elementLength

        for check in Check.allCases {
            let client = try CheckedClient(suite: suite, check: check,
                                           publicKey: check == .committedKey ? server.publicKey : nil)
            #expect(client.suite == suite && client.check == check && client.kappa == 0)

            let batch = try client.blind(items)
            #expect(batch.request.count == client.requestLength(for: items.count) * width)
            let response = try server.evaluate(batch.request)
            let got = try batch.finalize(response)
            #expect(got == want, "\(suite) \(check): outputs differ from the plain OPRF's")

            // The last element evaluated with another key.
            let cheated = try client.blind(items)
            var cheatedResponse = try server.evaluate(cheated.request)
            let last = try other.evaluate(cheated.request.suffix(width))
            cheatedResponse.replaceSubrange((cheatedResponse.count - width)..., with: last)
            let caught = finalizeError(cheated) { try $0.finalize(cheatedResponse) }
            #expect(caught == .verificationFailed(cheaters: []), "\(suite) \(check): a cheater passed")

            // The response tampered with: one element replaced by another
            // valid element (a server's answer to a different element).
            let tampered = try client.blind(items)
            var altered = try server.evaluate(tampered.request)
            altered.replaceSubrange(0..<width, with: try server.evaluate(tampered.request[width..<(2 * width)]))
            let tamperedError = finalizeError(tampered) { try $0.finalize(altered) }
            #expect(tamperedError == .verificationFailed(cheaters: []), "\(suite) \(check): a tampered response passed")

            // A malformed response.
            let short = try client.blind(items)
            let shortResponse = try server.evaluate(short.request).dropFirst()
            let shortError = finalizeError(short) { try $0.finalize(shortResponse) }
            #expect(shortError == .badLength)
        }
    }

    /// The committed key is bound at blind time: a server with another key
    /// is caught even though it answers consistently.
    @Test("another key is caught by the committed-key check")
    func anotherKey() throws {
        let server = try OPRFServer.generate(suite: .ristretto255)
        let other = try OPRFServer.generate(suite: .ristretto255)
        let client = try CheckedClient(suite: .ristretto255, check: .committedKey, publicKey: server.publicKey,
                                       kappa: Library.kappaRange.lowerBound)
        let batch = try client.blind(inputs(3))
        let response = try other.evaluate(batch.request)
        let error = finalizeError(batch) { try $0.finalize(response) }
        #expect(error == .verificationFailed(cheaters: []))
    }

    /// The key-free check pads small batches; κ sets the padding.
    @Test("request lengths")
    func requestLengths() throws {
        let server = try OPRFServer.generate(suite: .ristretto255)
        let committed = try CheckedClient(suite: .ristretto255, check: .committedKey, publicKey: server.publicKey)
        let keyFree = try CheckedClient(suite: .ristretto255, check: .keyFree, kappa: 128)
        #expect(committed.requestLength(for: 1) == 2 && keyFree.requestLength(for: 1) == 3)
        #expect(committed.requestLength(for: 0) == 0 && committed.requestLength(for: -1) == 0)
        #expect(committed.requestLength(for: 70000) == 0)
        #expect(throws: OblivexError.badLength) { _ = try committed.blind(inputs(70000)) }
    }
}
