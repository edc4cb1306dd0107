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

// Two goroutines step one DKG round value at once (run with -race): each
// step rewrites the party's state, so the steps must not overlap; one
// wins and the other finds the party moved on (ErrWrongRound), every
// time, and the winner's party lives on (its next step runs). The step is
// round 2 of an FFDHE-2048 run, which checks every share pair against its
// dealer's commitments by exponentiations, so that without the party's
// exclusive lock the two calls overlap: the loser then saw the party
// mid-step, as a failed run, and released it under the winner.
func TestConcurrentDKGStepsOneWins(t *testing.T) {
	for run := 0; run < 20; run++ {
		starts := startAll(t, SuiteFFDHE2048, 3, 5, bytes.Repeat([]byte{0x47}, DKGSessionIDLen))
		broadcasts := map[uint16][]byte{}
		for i, s := range starts {
			broadcasts[uint16(i+1)] = s.Broadcast
		}
		commitments := inboxOf(stepCommitments, 1, broadcasts, honestNetwork)
		var pairs []DKGMessage
		for j, other := range starts[1:] {
			pairs = append(pairs, DKGMessage{From: uint16(j + 2), Bytes: other.Shares[0].Bytes})
		}
		var wg sync.WaitGroup
		start := make(chan struct{})
		results := make([]error, 2)
		rounds := make([]*DKGRound2, 2)
		for g := range results {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				<-start
				rounds[g], results[g] = starts[0].Round2(commitments, pairs)
			}(g)
		}
		close(start)
		wg.Wait()
		won := 0
		for g, err := range results {
			switch {
			case err == nil:
				won++
				// No complaints arrived: the winner's party takes round 3.
				if _, err := rounds[g].Round3(nil); err != nil {
					t.Fatalf("run %d: the winner's next step failed with %v", run, err)
				}
			case !errors.Is(err, ErrWrongRound):
				t.Fatalf("run %d: the losing step failed with %v, not ErrWrongRound", run, err)
			}
		}
		if won != 1 {
			t.Fatalf("run %d: %d of 2 concurrent steps succeeded, want exactly 1", run, won)
		}
		for _, s := range starts {
			s.Close()
		}
	}
}
