// Must not compile (run-tests.sh): a POPRF info given to an OPRF client.
package main

import oblivex "github.com/oblivex/oblivex/bindings/go"

func main() {
	client, _ := oblivex.NewOPRFClient(oblivex.SuiteRistretto255)
	_, _ = client.Blind([][]byte{[]byte("input")}, []byte("info"))
}
