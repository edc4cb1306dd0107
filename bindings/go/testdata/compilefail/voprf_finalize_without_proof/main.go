// Must not compile (run-tests.sh): a VOPRF answer finalized without its
// proof.
package main

import oblivex "github.com/oblivex/oblivex/bindings/go"

func main() {
	server, _ := oblivex.GenerateVOPRFServer(oblivex.SuiteRistretto255)
	client, _ := oblivex.NewVOPRFClient(server.PublicKey())
	batch, _ := client.Blind([][]byte{[]byte("input")})
	evaluated, _, _ := server.Evaluate(batch.Request())
	_, _ = batch.Finalize(evaluated)
}
