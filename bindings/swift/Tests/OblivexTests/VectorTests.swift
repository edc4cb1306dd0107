import Foundation
import Oblivex
import Testing

/// One test vector of tests/vectors/rfc9497.json (the fields these tests
/// use; blinds and proofs are random in the C API).
struct RFCVector: Decodable, Sendable, CustomTestStringConvertible {
    let suite: String
    let mode: String
    let rfcSection: String
    let seed: String
    let keyInfo: String
    let skSm: String
    let pkSm: String?
    let info: String?
    let inputs: [String]
    let blindedElements: [String]
    let evaluationElements: [String]
    let outputs: [String]

    var testDescription: String { "\(rfcSection) \(suite) \(mode)" }
}

/// The vectors, read with JSONDecoder from the repository's copy.
let rfcVectors: [RFCVector] = {
    struct File: Decodable {
        let vectors: [RFCVector]
    }
    let url = repositoryRoot.appendingPathComponent("tests/vectors/rfc9497.json")
    guard let data = try? Data(contentsOf: url), let file = try? JSONDecoder().decode(File.self, from: data) else {
        return []
    }
    return file.vectors
}()

@Suite("RFC 9497 vectors")
struct VectorTests {
    @Test("the vector file covers both suites and all modes")
    func coverage() {
        #expect(rfcVectors.count >= 12)
        #expect(Set(rfcVectors.map(\.suite)) == ["ristretto255-SHA512", "P256-SHA256"])
        #expect(Set(rfcVectors.map(\.mode)) == ["OPRF", "VOPRF", "POPRF"])
        #expect(rfcVectors.contains { $0.inputs.count > 1 }) // a batch vector
    }

    /// The derived key, the server's evaluation of the vector's blinded
    /// elements, and the outputs of a full blind/evaluate/finalize round
    /// (fresh blinds: the outputs do not depend on them).
    @Test("derived keys, evaluations and outputs", arguments: rfcVectors)
    func vector(_ v: RFCVector) throws {
        let suite = try #require(Suite(identifier: v.suite))
        let mode = try #require(Mode.allCases.first { $0.description == v.mode })
        let server = try OPRFServer.derive(suite: suite, mode: mode, seed: unhex(v.seed), info: unhex(v.keyInfo))
        #expect(server.suite == suite && server.mode == mode)
        let secretKey = try server.secretKey()
        #expect(secretKey == unhex(v.skSm), "DeriveKeyPair: secret key")
        if let pkSm = v.pkSm {
            #expect(server.publicKey.bytes == unhex(pkSm), "DeriveKeyPair: public key")
        }
        // The stored key gives the same server.
        #expect(try OPRFServer(suite: suite, mode: mode, secretKey: secretKey).publicKey == server.publicKey)

        let info = v.info.map(unhex) ?? []
        let blinded = v.blindedElements.flatMap(unhex)
        let (evaluated, proof) = try server.evaluate(blinded, info: info)
        #expect(evaluated == v.evaluationElements.flatMap(unhex), "evaluation of the vector's blinded elements")
        if mode == .oprf {
            #expect(proof == nil)
        } else {
            #expect(proof?.count == suite.proofLength)
        }

        // A full round through the client, verifying the proof against a
        // public key parsed from its bytes.
        let key = mode == .oprf ? nil : try PublicKey(suite: suite, bytes: server.publicKey.bytes)
        let client = try OPRFClient(suite: suite, mode: mode, publicKey: key)
        let batch = try client.blind(v.inputs.map(unhex), info: info)
        #expect(batch.request.count == v.inputs.count * suite.elementLength)
        let answer = try server.evaluate(batch.request, info: info)
        let outputs = try batch.finalize(answer.evaluated, proof: answer.proof)
        #expect(outputs == v.outputs.map(unhex), "outputs")
    }
}
