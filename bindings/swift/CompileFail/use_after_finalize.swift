// Must NOT compile: a batch used after it was finalized ("'batch' used
// after consume"), here a threshold batch whose request is read again.
import Oblivex

func useAfterFinalize(commitments: Commitments, responses: [ThresholdResponse]) throws(OblivexError) -> [UInt8] {
    let batch = try ThresholdOPRFClient(commitments: commitments).blind(["alice".utf8])
    _ = try batch.finalize(responses)
    return batch.request // error: 'batch' used after consume
}
