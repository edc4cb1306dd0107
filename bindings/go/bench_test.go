package oblivex

import "testing"

// BenchmarkCgoCall is the cost of one trivial call into liboblivex: the
// cgo overhead every wrapped call pays once.
func BenchmarkCgoCall(b *testing.B) {
	for i := 0; i < b.N; i++ {
		_ = Ristretto255SHA512.ElementLen()
	}
}

// BenchmarkCheckedBatch256 is one checked OPRF batch of 256 inputs through
// Go (client blind, server evaluate, client verify-finalize): about a
// dozen cgo calls plus copies of the request and outputs.
func BenchmarkCheckedBatch256(b *testing.B) {
	server, err := GenerateServer(Ristretto255SHA512, ModeOPRF)
	if err != nil {
		b.Fatal(err)
	}
	defer server.Close()
	pk, _ := server.PublicKey()
	client := &CheckedClient{Suite: Ristretto255SHA512, Check: CommittedKey}
	in := inputs(256)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		fin, request, err := client.Blind(in)
		if err != nil {
			b.Fatal(err)
		}
		response, _ := server.Evaluate(request)
		if _, err := client.Finalize(fin, response, pk); err != nil {
			b.Fatal(err)
		}
	}
}
