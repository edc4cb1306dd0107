package oblivex

import (
	"bytes"
	"errors"
	"math/big"
	"sync"
	"testing"
)

// One server handle, one key share, one client and one modulus context used
// from many goroutines at once (run with -race); results must not change.
func TestConcurrentUseOfOneHandle(t *testing.T) {
	server := must(GenerateOPRFServer(SuiteRistretto255))
	shares, commitments := deal(t, SuiteRistretto255, nil, 2, 3)
	defer commitments.Close()
	ctx := must(NewModulusContextBig(big.NewInt(1000003)))
	client := must(NewOPRFClient(SuiteRistretto255))
	checked := must(NewCheckedClient(SuiteRistretto255, CheckCommittedKey, server.PublicKey(), 0))
	threshold := must(NewThresholdOPRFClient(commitments, nil, 0))
	batch := must(client.Blind(inputs(8)))
	request := batch.Request()
	want, _ := server.Evaluate(request)
	wantShare := must(shares[0].Evaluate(nil, request))
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
				got, err = shares[0].Evaluate(nil, request)
				if err != nil || !bytes.Equal(got, wantShare) {
					errs <- "share result changed"
					return
				}
				r, err := ctx.ExpBig([]*big.Int{big.NewInt(int64(g + 2))}, []*big.Int{big.NewInt(int64(i))})
				if err != nil || r[0].Cmp(new(big.Int).Exp(big.NewInt(int64(g+2)), big.NewInt(int64(i)), big.NewInt(1000003))) != 0 {
					errs <- "modexp result changed"
					return
				}
				if i%5 == 0 {
					b, err := checked.Blind(inputs(2))
					if err != nil {
						errs <- err.Error()
						return
					}
					response, _ := server.Evaluate(b.Request())
					if _, err := b.Finalize(response); err != nil {
						errs <- "checked batch: " + err.Error()
						return
					}
					tb, err := threshold.Blind(inputs(1))
					if err != nil {
						errs <- err.Error()
						return
					}
					tb.Close()
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
				if _, err := server.Evaluate(request); err != nil && !errors.Is(err, ErrClosed) {
					panic(err)
				}
				if _, err := ctx.ExpBatch([][]byte{{2}}, [][]byte{{3}}); err != nil && !errors.Is(err, ErrClosed) {
					panic(err)
				}
				if _, err := ExpBatchMulti([]*ModulusContext{ctx, ctx}, [][]byte{{2}, {3}}, [][]byte{{3}, {2}}); err != nil && !errors.Is(err, ErrClosed) {
					panic(err)
				}
			}
		}()
	}
	server.Close()
	ctx.Close()
	wg2.Wait()
	batch.Close()
}

// A single-use batch finalized from several goroutines at once: exactly
// one gets the outputs, the others ErrBatchUsed.
func TestConcurrentFinalizeOfOneBatch(t *testing.T) {
	shares, commitments := deal(t, SuiteP256, nil, 2, 2)
	defer commitments.Close()
	client := must(NewThresholdOPRFClient(commitments, nil, 0))
	batch := must(client.Blind(inputs(3)))
	responses := respond(t, shares, batch.Request(), nil, []uint16{1, 2}, nil)
	var wg sync.WaitGroup
	results := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, err := batch.Finalize(responses)
			results <- err
		}()
	}
	wg.Wait()
	close(results)
	ok := 0
	for err := range results {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, ErrBatchUsed):
			t.Fatal(err)
		}
	}
	if ok != 1 {
		t.Fatalf("%d successful finalizations", ok)
	}
}
