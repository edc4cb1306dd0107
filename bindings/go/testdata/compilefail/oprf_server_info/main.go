// Must not compile (run-tests.sh): a POPRF info given to an OPRF server.
package main

import oblivex "github.com/oblivex/oblivex/bindings/go"

func main() {
	server, _ := oblivex.GenerateOPRFServer(oblivex.SuiteRistretto255)
	_, _ = server.Evaluate([]byte("blinded"), []byte("info"))
}
