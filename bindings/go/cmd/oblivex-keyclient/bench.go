package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"sort"
	"sync"
	"time"

	oblivex "github.com/oblivex/oblivex/bindings/go"
	"github.com/oblivex/oblivex/bindings/go/internal/keyservice"
)

// bench loads one server with concurrent clients, each sending requests
// of -batch elements back to back for -duration (as HTTP calls, or with
// -stream as frames on one stream per client), and prints elements/s
// and the p50/p99 latency; with -library it first runs the library's own
// evaluation in this process for as long, for the overhead ratio. It is a
// benchmark: it measures, it asserts nothing.
func bench(args []string) error {
	var conn connection
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	conn.register(fs)
	server := fs.String("server", "", "the server's URL")
	suiteName := fs.String("suite", oblivex.SuiteRistretto255.String(), "suite")
	protocol := fs.String("protocol", string(keyservice.OPRF), "evaluate endpoint: oprf, voprf or threshold")
	concurrency := fs.Int("concurrency", 16, "concurrent clients")
	duration := fs.Duration("duration", 10*time.Second, "how long to send")
	batch := fs.Int("batch", 1, "elements per request")
	library := fs.Bool("library", false, "also measure the library's own evaluation rate here (one goroutine per -library-threads)")
	libraryThreads := fs.Int("library-threads", 1, "goroutines of the -library run")
	stream := fs.Bool("stream", false, "each client sends its requests on one stream of the streaming endpoint (plain OPRF)")
	window := fs.Int("window", 1, "with -stream: requests each client sends back to back before reading their answers")
	if err := fs.Parse(args); err != nil {
		return err
	}
	suite, err := keyservice.SuiteByName(*suiteName)
	if err != nil {
		return err
	}
	if *concurrency < 1 || *batch < 1 || *duration <= 0 {
		return errors.New("-concurrency, -batch and -duration must be positive")
	}
	if *stream && keyservice.Protocol(*protocol) != keyservice.OPRF {
		return errors.New("-stream carries plain OPRF requests only")
	}
	if *window < 1 || (*window > 1 && !*stream) {
		return errors.New("-window is at least 1, and above 1 with -stream only")
	}
	if *library {
		rate, err := libraryRate(suite, *batch, *libraryThreads, *duration)
		if err != nil {
			return err
		}
		fmt.Printf("library: %.0f elements/s (%d goroutines, batch %d)\n", rate, *libraryThreads, *batch)
	}
	conn.transport.Conns = *concurrency
	kc, err := conn.client(*server)
	if err != nil {
		return err
	}
	call, mode := httpCall(kc, suite, keyservice.Protocol(*protocol)), "http"
	if *stream {
		call, mode = streamCall(kc, suite, *window), fmt.Sprintf("stream (window %d)", *window)
	}
	r, err := load(call, suite, *concurrency, *batch, *duration)
	if err != nil {
		return err
	}
	fmt.Printf("%s: %.0f elements/s, %d requests, p50 %v, p99 %v, %d errors (concurrency %d, batch %d, %v)\n",
		mode, float64(r.requests*(*batch))/r.elapsed.Seconds(), r.requests, r.percentile(50), r.percentile(99), r.errors,
		*concurrency, *batch, r.elapsed.Round(time.Millisecond))
	if r.firstErr != nil {
		fmt.Printf("first error: %v\n", r.firstErr)
	}
	return nil
}

// blindedRequest is a request of n blinded random inputs.
func blindedRequest(suite oblivex.Suite, n int) ([]byte, error) {
	inputs := make([][]byte, n)
	for i := range inputs {
		inputs[i] = make([]byte, 16)
		if _, err := rand.Read(inputs[i]); err != nil {
			return nil, err
		}
	}
	client, err := oblivex.NewOPRFClient(suite)
	if err != nil {
		return nil, err
	}
	b, err := client.Blind(inputs)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	return append([]byte(nil), b.Request()...), nil
}

// libraryRate is the library's evaluation rate in elements/s: threads
// goroutines each evaluating batches of n with a fresh key for d.
func libraryRate(suite oblivex.Suite, n, threads int, d time.Duration) (float64, error) {
	server, err := oblivex.GenerateOPRFServer(suite)
	if err != nil {
		return 0, err
	}
	defer server.Close()
	request, err := blindedRequest(suite, n)
	if err != nil {
		return 0, err
	}
	var mu sync.Mutex
	var total int
	var wg sync.WaitGroup
	start := time.Now()
	for i := 0; i < threads; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			count := 0
			for time.Since(start) < d {
				if _, err := server.Evaluate(request); err != nil {
					return
				}
				count++
			}
			mu.Lock()
			total += count
			mu.Unlock()
		}()
	}
	wg.Wait()
	return float64(total*n) / time.Since(start).Seconds(), nil
}

// loadResult is what a load run measured.
type loadResult struct {
	requests  int
	errors    int
	firstErr  error
	latencies []time.Duration
	elapsed   time.Duration
}

// percentile is the p-th percentile latency (0 without any).
func (r *loadResult) percentile(p int) time.Duration {
	if len(r.latencies) == 0 {
		return 0
	}
	return r.latencies[(len(r.latencies)-1)*p/100]
}

// clientCall makes one client's calls: it returns the function that
// sends requests and returns when their answers are in, and how many
// requests one call sends.
type clientCall func() (func(request []byte) error, int, error)

// httpCall sends each request as one HTTP call to the evaluate endpoint.
func httpCall(kc *keyservice.Client, suite oblivex.Suite, protocol keyservice.Protocol) clientCall {
	return func() (func([]byte) error, int, error) {
		return func(request []byte) error {
			_, err := kc.Evaluate(context.Background(), suite, protocol, request, nil, nil)
			return err
		}, 1, nil
	}
}

// streamCall opens one stream per client; a call sends window requests
// back to back as frames, then reads their answers.
func streamCall(kc *keyservice.Client, suite oblivex.Suite, window int) clientCall {
	return func() (func([]byte) error, int, error) {
		s, err := kc.OpenStream(context.Background(), suite)
		if err != nil {
			return nil, 0, err
		}
		return func(request []byte) error {
			for i := 0; i < window; i++ {
				if err := s.Send(request); err != nil {
					return err
				}
			}
			if err := s.Flush(); err != nil {
				return err
			}
			for i := 0; i < window; i++ {
				if _, err := s.Receive(); err != nil {
					return err
				}
			}
			return nil
		}, window, nil
	}
}

// load runs concurrency clients, each sending its requests back to back
// with call for d.
func load(call clientCall, suite oblivex.Suite, concurrency, n int, d time.Duration) (*loadResult, error) {
	requests := make([][]byte, concurrency)
	calls := make([]func([]byte) error, concurrency)
	perCall := 1
	for i := range requests {
		var err error
		if requests[i], err = blindedRequest(suite, n); err != nil {
			return nil, err
		}
		if calls[i], perCall, err = call(); err != nil {
			return nil, err
		}
	}
	result := &loadResult{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for i := 0; i < concurrency; i++ {
		wg.Add(1)
		go func(request []byte, call func([]byte) error) {
			defer wg.Done()
			var latencies []time.Duration
			var failures int
			var firstErr error
			for time.Since(start) < d {
				t := time.Now()
				if err := call(request); err != nil {
					failures++
					if firstErr == nil {
						firstErr = err
					}
					continue
				}
				latencies = append(latencies, time.Since(t))
			}
			mu.Lock()
			defer mu.Unlock()
			result.requests += len(latencies) * perCall
			result.errors += failures
			result.latencies = append(result.latencies, latencies...)
			if result.firstErr == nil {
				result.firstErr = firstErr
			}
		}(requests[i], calls[i])
	}
	wg.Wait()
	result.elapsed = time.Since(start)
	sort.Slice(result.latencies, func(i, j int) bool { return result.latencies[i] < result.latencies[j] })
	return result, nil
}
