package oblivex_test

import (
	"errors"
	"fmt"
	"io"
	"math/big"

	oblivex "github.com/oblivex/oblivex/bindings/go"
)

// Every handle-owning type is an io.Closer.
var _ = []io.Closer{
	(*oblivex.OPRFServer)(nil), (*oblivex.VOPRFServer)(nil), (*oblivex.POPRFServer)(nil),
	(*oblivex.OPRFBatch)(nil), (*oblivex.VOPRFBatch)(nil), (*oblivex.POPRFBatch)(nil), (*oblivex.CheckedBatch)(nil),
	(*oblivex.KeyShare)(nil), (*oblivex.Commitments)(nil), (*oblivex.ThresholdOPRFBatch)(nil),
	(*oblivex.BLSKeySet)(nil), (*oblivex.BLSBatch)(nil), (*oblivex.ElGamalBatch)(nil),
	(*oblivex.ModulusContext)(nil),
}

// The README's example: a batch OPRF with the malicious-server check.
func Example_checkedBatch() {
	server, err := oblivex.GenerateOPRFServer(oblivex.SuiteRistretto255)
	if err != nil {
		panic(err)
	}
	defer server.Close()
	publicKey := server.PublicKey() // published; clients obtain it authentically

	client, err := oblivex.NewCheckedClient(oblivex.SuiteRistretto255, oblivex.CheckCommittedKey, publicKey, 0)
	if err != nil {
		panic(err)
	}
	batch, err := client.Blind([][]byte{[]byte("alice"), []byte("bob")})
	if err != nil {
		panic(err)
	}
	defer batch.Close()
	response, err := server.Evaluate(batch.Request()) // on the server
	if err != nil {
		panic(err)
	}
	outputs, err := batch.Finalize(response)
	if errors.Is(err, oblivex.ErrVerificationFailed) {
		panic("the server cheated")
	}
	fmt.Println(len(outputs), len(outputs[0]))
	// Output: 2 64
}

// A VOPRF round: the client verifies the server's proof against its public
// key.
func ExampleVOPRFClient() {
	server, _ := oblivex.GenerateVOPRFServer(oblivex.SuiteP256)
	defer server.Close()
	client, _ := oblivex.NewVOPRFClient(server.PublicKey())
	batch, _ := client.Blind([][]byte{[]byte("password")})
	evaluated, proof, _ := server.Evaluate(batch.Request())
	outputs, err := batch.Finalize(evaluated, proof)
	fmt.Println(len(outputs[0]), err)
	// Output: 32 <nil>
}

// A POPRF round: client and server use the same public info, which tweaks
// the key (another info gives other outputs, and a mismatch fails the
// proof).
func ExamplePOPRFClient() {
	server, _ := oblivex.GeneratePOPRFServer(oblivex.SuiteRistretto255)
	defer server.Close()
	client, _ := oblivex.NewPOPRFClient(server.PublicKey())
	info := []byte("2024 tokens")
	batch, _ := client.Blind([][]byte{[]byte("password")}, info)
	evaluated, proof, _ := server.Evaluate(batch.Request(), info)
	outputs, err := batch.Finalize(evaluated, proof)
	fmt.Println(len(outputs[0]), err)
	// Output: 64 <nil>
}

// A 2-of-3 threshold OPRF: one server answers with the wrong share and is
// named; the two honest answers give the outputs.
func ExampleThresholdOPRFClient() {
	shares, commitments, _ := oblivex.Deal(oblivex.SuiteRistretto255, nil, 2, 3)
	defer commitments.Close()
	client, _ := oblivex.NewThresholdOPRFClient(commitments, nil, 0)
	batch, _ := client.Blind([][]byte{[]byte("alice")})
	var responses []oblivex.Response
	for i, share := range shares {
		if i == 2 {
			share = shares[0] // server 3 cheats
		}
		answer, _ := share.Evaluate(nil, batch.Request())
		responses = append(responses, oblivex.Response{Party: uint16(i + 1), Elements: answer})
	}
	outputs, cheaters, err := batch.Finalize(responses)
	fmt.Println(len(outputs), cheaters, err)

	// With two cheaters no output, and both named.
	batch, _ = client.Blind([][]byte{[]byte("alice")})
	a, _ := shares[0].Evaluate(nil, batch.Request())
	b, _ := shares[0].Evaluate(nil, batch.Request())
	_, _, err = batch.Finalize([]oblivex.Response{{Party: 2, Elements: a}, {Party: 3, Elements: b}})
	var named *oblivex.CheatingServersError
	fmt.Println(errors.Is(err, oblivex.ErrNotEnoughResponses), errors.As(err, &named), named.Servers)
	// Output:
	// 1 [3] <nil>
	// true true [2 3]
}

// Batch exponentiation with math/big values.
func ExampleModulusContext_ExpBig() {
	ctx, _ := oblivex.NewModulusContext([]byte{0x01, 0x00, 0x01}) // 65537
	defer ctx.Close()
	results, _ := ctx.ExpBig([]*big.Int{big.NewInt(2), big.NewInt(3)}, []*big.Int{big.NewInt(10), big.NewInt(4)})
	fmt.Println(results)
	// Output: [1024 81]
}
