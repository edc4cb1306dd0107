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
    /// (fresh blinds: the outputs do not depend on them), each mode through
    /// its own types. The verifying clients are made with a public key
    /// parsed from its bytes.
    @Test("derived keys, evaluations and outputs", arguments: rfcVectors)
    func vector(_ v: RFCVector) throws {
        let suite = try #require(Suite(identifier: v.suite))
        let info = v.info.map(unhex) ?? []
        let inputs = v.inputs.map(unhex)
        let blinded = v.blindedElements.flatMap(unhex)
        let evaluation = v.evaluationElements.flatMap(unhex)
        let outputs: [[UInt8]]
        switch v.mode {
        case "OPRF":
            let server = try derivedServer(OPRFMode.self, v, suite)
            #expect(try server.evaluate(blinded) == evaluation, "evaluation of the vector's blinded elements")
            let batch = try OPRFClient(suite: suite).blind(inputs)
            let evaluated = try server.evaluate(batch.request)
            outputs = try batch.finalize(evaluated)
        case "VOPRF":
            let server = try derivedServer(VOPRFMode.self, v, suite)
            let (evaluated, proof) = try server.evaluate(blinded)
            #expect(evaluated == evaluation && proof.count == suite.proofLength)
            let client = VOPRFClient(publicKey: try PublicKey(suite: suite, bytes: server.publicKey.bytes))
            let batch = try client.blind(inputs)
            let answer = try server.evaluate(batch.request)
            outputs = try batch.finalize(answer.evaluated, proof: answer.proof)
        case "POPRF":
            let server = try derivedServer(POPRFMode.self, v, suite)
            let (evaluated, proof) = try server.evaluate(blinded, info: info)
            #expect(evaluated == evaluation && proof.count == suite.proofLength)
            let client = POPRFClient(publicKey: try PublicKey(suite: suite, bytes: server.publicKey.bytes))
            let batch = try client.blind(inputs, info: info)
            let answer = try server.evaluate(batch.request, info: info)
            outputs = try batch.finalize(answer.evaluated, proof: answer.proof)
        default:
            Issue.record("unknown mode \(v.mode)")
            return
        }
        #expect(outputs == v.outputs.map(unhex), "outputs")
    }

    /// The vector's server in the mode `Kind`, after checking its derived
    /// key pair and that the stored secret key gives the same server.
    func derivedServer<Kind: RFC9497Mode>(
        _ kind: Kind.Type, _ v: RFCVector, _ suite: Suite
    ) throws -> RFC9497Server<Kind> {
        let server = try RFC9497Server<Kind>.derive(suite: suite, seed: unhex(v.seed), info: unhex(v.keyInfo))
        #expect(server.suite == suite && server.mode.description == v.mode)
        let secretKey = try server.secretKey()
        #expect(secretKey == unhex(v.skSm), "DeriveKeyPair: secret key")
        if let pkSm = v.pkSm {
            #expect(server.publicKey.bytes == unhex(pkSm), "DeriveKeyPair: public key")
        }
        #expect(try RFC9497Server<Kind>(suite: suite, secretKey: secretKey).publicKey == server.publicKey)
        return server
    }
}
