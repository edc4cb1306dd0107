// Must compile (run-tests.sh): each mode's types used with what that mode
// has, so that the refusals next to it are refusals of the mode, not of
// the setup.
package main

import oblivex "github.com/oblivex/oblivex/bindings/go"

func main() {
	oprf, _ := oblivex.GenerateOPRFServer(oblivex.SuiteRistretto255)
	client, _ := oblivex.NewOPRFClient(oblivex.SuiteRistretto255)
	batch, _ := client.Blind([][]byte{[]byte("input")})
	evaluated, _ := oprf.Evaluate(batch.Request())
	_, _ = batch.Finalize(evaluated)

	voprf, _ := oblivex.GenerateVOPRFServer(oblivex.SuiteRistretto255)
	vclient, _ := oblivex.NewVOPRFClient(voprf.PublicKey())
	vbatch, _ := vclient.Blind([][]byte{[]byte("input")})
	evaluated, proof, _ := voprf.Evaluate(vbatch.Request())
	_, _ = vbatch.Finalize(evaluated, proof)

	poprf, _ := oblivex.GeneratePOPRFServer(oblivex.SuiteRistretto255)
	pclient, _ := oblivex.NewPOPRFClient(poprf.PublicKey())
	pbatch, _ := pclient.Blind([][]byte{[]byte("input")}, []byte("info"))
	evaluated, proof, _ = poprf.Evaluate(pbatch.Request(), []byte("info"))
	_, _ = pbatch.Finalize(evaluated, proof)
}
