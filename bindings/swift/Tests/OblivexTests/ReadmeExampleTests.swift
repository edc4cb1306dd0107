import Oblivex

/// The checked batch OPRF: the server is caught if it cheats.
func checkedBatchOPRF() throws(OblivexError) -> [[UInt8]] {
    let server = try OPRFServer.generate(suite: .ristretto255)
    // Clients obtain the server's public key authentically.
    let client = try CheckedClient(suite: .ristretto255, check: .committedKey, publicKey: server.publicKey)
    let batch = try client.blind(["alice".utf8, "bob".utf8])
    let response = try server.evaluate(batch.request) // on the server
    return try batch.finalize(response) // consumes `batch`; throws .verificationFailed if the server cheated
}

// The code above is the Swift quick start of the repository's README.md,
// character for character (readmeIsThisCode checks it); the threshold
// example below is in bindings/swift/README.md.

/// A 2-of-3 threshold OPRF of "alice" under a dealt `key` (nil: a fresh
/// one): server 3 answers with the wrong share and is named; the two
/// honest answers give the outputs, the single-key OPRF's under `key`.
func thresholdOPRF(key: [UInt8]? = nil) throws(OblivexError) -> (outputs: [[UInt8]], cheaters: [UInt16])? {
    let (shares, commitments) = try KeyShare.deal(suite: .ristretto255, secret: key, threshold: 2, parties: 3)
    let client = try ThresholdOPRFClient(commitments: commitments)
    let batch = try client.blind(["alice".utf8])
    var responses: [ThresholdResponse] = []
    for share in shares { // each server, on its own machine
        let key = share.id == 3 ? shares[0] : share // server 3 cheats
        responses.append(ThresholdResponse(party: share.id, elements: try key.evaluate(batch.request)))
    }
    return finish(batch, responses)
}

/// A threshold client's last step, and what to do with each outcome.
func finish(
    _ batch: consuming ThresholdOPRFBatch, _ responses: [ThresholdResponse]
) -> (outputs: [[UInt8]], cheaters: [UInt16])? {
    do {
        let (outputs, cheaters) = try batch.finalize(responses)
        if !cheaters.isEmpty {
            print("servers caught cheating: \(cheaters)") // their answers were left out
        }
        return (outputs, cheaters)
    } catch .notEnoughResponses(let cheaters) {
        print("fewer than t correct answers; servers caught cheating: \(cheaters)")
    } catch .verificationFailed(let cheaters) {
        print("a cheater in the named quorum (\(cheaters)): ask another quorum with a fresh batch")
    } catch {
        print("refused: \(error)") // an OblivexError; the batch is spent all the same
    }
    return nil
}

import Foundation
import Testing

@Suite("README examples")
struct ReadmeExampleTests {
    @Test("the README's quick start runs")
    func quickStart() throws {
        let outputs = try checkedBatchOPRF()
        #expect(outputs.count == 2 && outputs.allSatisfy { $0.count == 64 })
        #expect(outputs[0] != outputs[1])
    }

    /// What the example claims: server 3 is named, and the two honest
    /// answers give the right output (the single-key OPRF's under the
    /// dealt key), with a fresh key too.
    @Test("the bindings README's threshold example runs")
    func threshold() throws {
        let server = try OPRFServer.generate(suite: .ristretto255)
        let plain = try OPRFClient(suite: .ristretto255).blind(["alice".utf8])
        let evaluated = try server.evaluate(plain.request)
        let want = try plain.finalize(evaluated)
        let result = try #require(try thresholdOPRF(key: server.secretKey()))
        #expect(result.cheaters == [3])
        #expect(result.outputs == want)
        let fresh = try #require(try thresholdOPRF())
        #expect(fresh.cheaters == [3])
        #expect(fresh.outputs.count == 1 && fresh.outputs[0].count == 64 && fresh.outputs != want)
    }

    /// The Swift blocks of both READMEs are in this file, unchanged.
    @Test("the READMEs show this file's code")
    func readmeIsThisCode() throws {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let quickStart = try #require(readme.range(of: "## Quick start"))
        let blocks = swiftBlocks(readme[quickStart.upperBound...])
        #expect(blocks.count == 1, "one Swift block in the README's quick start")
        let bindingsReadme = try String(
            contentsOf: repositoryRoot.appendingPathComponent("bindings/swift/README.md"), encoding: .utf8)
        let bindingsBlocks = swiftBlocks(bindingsReadme[...])
        #expect(bindingsBlocks.count >= 2)
        for block in blocks + bindingsBlocks {
            let found = source.contains(block)
            #expect(found, "a README's Swift block is not in ReadmeExampleTests.swift, unchanged:\n\(block)")
        }
    }

    /// The contents of the ```swift blocks of a Markdown text.
    func swiftBlocks(_ text: Substring) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n") + "\n")
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }
}
