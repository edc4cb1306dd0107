// Must NOT compile: a VOPRF answer finalized without its proof. A
// VOPRFBatch's `finalize` takes the proof (control.swift gives it);
// only an OPRFBatch's takes none. run-tests.sh checks the diagnostic.
import Oblivex

func finalizeWithoutProof(server: VOPRFServer) throws(OblivexError) -> [[UInt8]] {
    let batch = try VOPRFClient(publicKey: server.publicKey).blind(["alice".utf8])
    let (evaluated, _) = try server.evaluate(batch.request)
    return try batch.finalize(evaluated) // error: ... requires the types 'VOPRFMode' and 'OPRFMode' be equivalent
}
