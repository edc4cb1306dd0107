// Must compile (the control of the compile-fail files): each batch
// finalized once, moved where needed, servers shared as Sendable values.
import Oblivex

func requireSendable<T: Sendable & ~Copyable>(_ value: borrowing T) {}

func finalizeOnce(server: OPRFServer) throws(OblivexError) -> [[UInt8]] {
    requireSendable(server)
    let client = try OPRFClient(suite: .ristretto255, mode: .oprf)
    let batch = try client.blind(["alice".utf8])
    let request = batch.request // read before finalizing: a copy
    let (evaluated, _) = try server.evaluate(request)
    let moved = batch // a move, not a copy
    return try moved.finalize(evaluated)
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
