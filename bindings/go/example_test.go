package oblivex_test

import (
	"errors"
	"fmt"

	oblivex "github.com/oblivex/oblivex/bindings/go"
)

// The README's example: a batch OPRF with the malicious-server check.
func Example_checkedBatch() {
	server, _ := oblivex.GenerateServer(oblivex.Ristretto255SHA512, oblivex.ModeOPRF)
	defer server.Close()
	publicKey, _ := server.PublicKey()

	client := &oblivex.CheckedClient{Suite: oblivex.Ristretto255SHA512, Check: oblivex.CommittedKey}
	state, request, err := client.Blind([][]byte{[]byte("alice"), []byte("bob")})
	if err != nil {
		panic(err)
	}
	response, err := server.Evaluate(request)
	if err != nil {
		panic(err)
	}
	outputs, err := client.Finalize(state, response, publicKey)
	if errors.Is(err, oblivex.ErrVerificationFailed) {
		panic("the server cheated")
	}
	fmt.Println(len(outputs), len(outputs[0]))
	// Output: 2 64
}
