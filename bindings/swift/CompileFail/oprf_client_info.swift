// Must NOT compile: a POPRF info given to an OPRF client's `blind`. Only a
// POPRFClient blinds under an info (control.swift does so). run-tests.sh
// checks the diagnostic.
import Oblivex

func infoToOPRFClient() throws(OblivexError) -> [UInt8] {
    let batch = try OPRFClient(suite: .ristretto255).blind(["alice".utf8], info: "info".utf8) // error: ... requires the types 'OPRFMode' and 'POPRFMode' be equivalent
    return batch.request
}
