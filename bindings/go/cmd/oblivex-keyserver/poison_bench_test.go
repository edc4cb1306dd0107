package main

import (
	"bytes"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	oblivex "github.com/oblivex/oblivex/bindings/go"
)

// BenchmarkPoisonedCoalescing measures what a client sending an invalid
// one-element request once per coalescing delay costs 64 honest clients
// sending one-element requests: their throughput (honest elements/s) with
// no such client, with its requests coalesced with theirs (as the server
// did before a refused request was charged to its client), and with its
// requests evaluated alone (what coalescerFor does for a client with a
// refused request in the window; the refusal budget then stops it). Run:
//
//	go test -run '^$' -bench PoisonedCoalescing -benchtime 3s ./cmd/oblivex-keyserver
func BenchmarkPoisonedCoalescing(b *testing.B) {
	const delay = time.Millisecond
	suite := oblivex.SuiteRistretto255
	invalid := bytes.Repeat([]byte{0xff}, suite.ElementLen())
	requests := make([][]byte, 64)
	client := must(oblivex.NewOPRFClient(suite))
	for i := range requests {
		requests[i] = must(client.Blind(inputsOf(fmt.Sprint("honest ", i), 1))).Request()
	}
	for _, poisoner := range []string{"none", "coalesced", "alone"} {
		b.Run("poisoner="+poisoner, func(b *testing.B) {
			server := must(oblivex.GenerateOPRFServer(suite))
			defer server.Close()
			c := newCoalescer(server, delay, 1024, runtime.GOMAXPROCS(0), newMetrics())
			defer c.close()
			stop := make(chan struct{})
			var poisoning sync.WaitGroup
			if poisoner != "none" {
				poisoning.Add(1)
				go func() {
					defer poisoning.Done()
					for {
						select {
						case <-stop:
							return
						case <-time.After(delay):
						}
						if poisoner == "coalesced" {
							c.evaluate(invalid)
						} else {
							server.Evaluate(invalid)
						}
					}
				}()
			}
			b.ResetTimer()
			var sent atomic.Int64
			var honest sync.WaitGroup
			for _, request := range requests {
				honest.Add(1)
				go func(request []byte) {
					defer honest.Done()
					for sent.Add(1) <= int64(b.N) {
						if _, err := c.evaluate(request); err != nil {
							b.Error(err)
							return
						}
					}
				}(request)
			}
			honest.Wait()
			b.StopTimer()
			close(stop)
			poisoning.Wait()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "honest-elements/s")
		})
	}
}
