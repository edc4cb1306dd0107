package oblivex

import (
	"bytes"
	"math/big"
	"sync"
	"testing"
)

// One server handle, one key share and one modulus context used from many
// goroutines at once (run with -race); results must not change.
func TestConcurrentUseOfOneHandle(t *testing.T) {
	server, err := GenerateServer(Ristretto255SHA512, ModeOPRF)
	if err != nil {
		t.Fatal(err)
	}
	shares, _, err := Deal(Ristretto255SHA512, nil, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	ctx, err := NewModulusContextBig(big.NewInt(1000003))
	if err != nil {
		t.Fatal(err)
	}
	client := &Client{Suite: Ristretto255SHA512, Mode: ModeOPRF}
	_, request, _ := client.Blind(inputs(8), nil)
	want, _ := server.Evaluate(request)
	wantShare, _ := shares[0].Evaluate(request, nil)
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				got, err := server.Evaluate(request)
				if err != nil || !bytes.Equal(got, want) {
					errs <- "server result changed"
					return
				}
				got, err = shares[0].Evaluate(request, nil)
				if err != nil || !bytes.Equal(got, wantShare) {
					errs <- "share result changed"
					return
				}
				r, err := ctx.ExpBig([]*big.Int{big.NewInt(int64(g + 2))}, []*big.Int{big.NewInt(int64(i))})
				if err != nil || r[0].Cmp(new(big.Int).Exp(big.NewInt(int64(g+2)), big.NewInt(int64(i)), big.NewInt(1000003))) != 0 {
					errs <- "modexp result changed"
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	// Close while others may still be calling: they get ErrClosed, never a crash.
	var wg2 sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg2.Add(1)
		go func() {
			defer wg2.Done()
			for i := 0; i < 50; i++ {
				_, _ = server.Evaluate(request)
			}
		}()
	}
	server.Close()
	wg2.Wait()
	ctx.Close()
}
