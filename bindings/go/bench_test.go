package oblivex

import "testing"

// BenchmarkCgoCall is the cost of one trivial call into liboblivex: the
// cgo overhead every wrapped call pays once.
func BenchmarkCgoCall(b *testing.B) {
	for i := 0; i < b.N; i++ {
		_ = SuiteRistretto255.ElementLen()
	}
}

// BenchmarkCheckedBatch256 is one checked OPRF batch of 256 inputs through
// Go (client blind, server evaluate, client finalize): about a dozen cgo
// calls plus copies of the request and outputs.
func BenchmarkCheckedBatch256(b *testing.B) {
	server, err := GenerateOPRFServer(SuiteRistretto255)
	if err != nil {
		b.Fatal(err)
	}
	defer server.Close()
	client, err := NewCheckedClient(SuiteRistretto255, CheckCommittedKey, server.PublicKey(), 0)
	if err != nil {
		b.Fatal(err)
	}
	in := inputs(256)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		batch, err := client.Blind(in)
		if err != nil {
			b.Fatal(err)
		}
		response, err := server.Evaluate(batch.Request())
		if err != nil {
			b.Fatal(err)
		}
		if _, err := batch.Finalize(response); err != nil {
			b.Fatal(err)
		}
	}
}
