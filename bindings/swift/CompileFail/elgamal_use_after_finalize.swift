// Must NOT compile: an ElGamal batch used after it was finalized ("'batch'
// used after consume"), here its output length read again.
import Oblivex

func useAfterFinalize(commitments: Commitments, ciphertext: [UInt8], responses: [ThresholdResponse]) throws(OblivexError) -> Int {
    let batch = try ElGamalClient(commitments: commitments, target: .plaintexts).blind([ciphertext])
    _ = try batch.finalize(responses)
    return batch.outputLength // error: 'batch' used after consume
}
