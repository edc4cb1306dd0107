// Must NOT compile: a blind BLS batch finalized twice ("'batch' consumed
// more than once"): `BLSBatch.finalize` consumes the batch.
import Oblivex

func finalizeTwice(keySet: BLSKeySet, responses: [ThresholdResponse]) throws(OblivexError) {
    let batch = try BLSClient(keySet: keySet).blind(["message".utf8])
    _ = try batch.finalize(responses)
    _ = try batch.finalize(responses) // error: 'batch' consumed more than once
}
