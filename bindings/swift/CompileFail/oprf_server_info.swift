// Must NOT compile: a POPRF info given to an OPRF server. The mode is in
// the type: only a POPRFServer's `evaluate` takes an info (control.swift
// gives it to one). run-tests.sh checks the diagnostic.
import Oblivex

func infoToOPRFServer(server: OPRFServer, request: [UInt8]) throws(OblivexError) {
    _ = try server.evaluate(request, info: "info".utf8) // error: ... requires the types 'OPRFMode' and 'POPRFMode' be equivalent
}
