// Must compile (the control of the compile-fail files): each batch
// finalized once, moved where needed, servers shared as Sendable values,
// each RFC 9497 mode given what its types take (an info in POPRF, the
// proof in VOPRF and POPRF).
import Oblivex

func requireSendable<T: Sendable & ~Copyable>(_ value: borrowing T) {}

func finalizeOnce(server: OPRFServer) throws(OblivexError) -> [[UInt8]] {
    requireSendable(server)
    let client = OPRFClient(suite: .ristretto255)
    let batch = try client.blind(["alice".utf8])
    let request = batch.request // read before finalizing: a copy
    let evaluated = try server.evaluate(request)
    let moved = batch // a move, not a copy
    return try moved.finalize(evaluated)
}

func verifyProof(server: VOPRFServer) throws(OblivexError) -> [[UInt8]] {
    requireSendable(server)
    let batch = try VOPRFClient(publicKey: server.publicKey).blind(["alice".utf8])
    let (evaluated, proof) = try server.evaluate(batch.request)
    return try batch.finalize(evaluated, proof: proof)
}

func partiallyOblivious(server: POPRFServer) throws(OblivexError) -> [[UInt8]] {
    let client = POPRFClient(publicKey: server.publicKey)
    requireSendable(client)
    let batch = try client.blind(["alice".utf8], info: "info".utf8)
    let (evaluated, proof) = try server.evaluate(batch.request, info: "info".utf8)
    return try batch.finalize(evaluated, proof: proof)
}

func finalizeLater(_ batch: consuming ThresholdOPRFBatch, responses: [ThresholdResponse]) throws(OblivexError) -> [[UInt8]] {
    try batch.finalize(responses).outputs
}

func neverFinalized(commitments: Commitments) throws(OblivexError) -> Int {
    requireSendable(commitments)
    let batch = try ThresholdOPRFClient(commitments: commitments).blind(["alice".utf8])
    return batch.request.count // freed (and wiped) by its deinit at the end of the scope
}

func finalizeSignaturesOnce(keySet: BLSKeySet, responses: [ThresholdResponse]) throws(OblivexError) -> [[UInt8]] {
    let batch = try BLSClient(keySet: keySet).blind(["message".utf8])
    return try batch.finalize(responses).signatures
}

func readBeforeFinalize(commitments: Commitments, ciphertext: [UInt8], responses: [ThresholdResponse]) throws(OblivexError) -> Int {
    let batch = try ElGamalClient(commitments: commitments, target: .plaintexts).blind([ciphertext])
    let length = batch.outputLength // read before finalizing
    _ = try batch.finalize(responses)
    return length
}
