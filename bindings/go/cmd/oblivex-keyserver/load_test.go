package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	oblivex "github.com/oblivex/oblivex/bindings/go"
	"github.com/oblivex/oblivex/bindings/go/internal/keyservice"
)

var soak = flag.Duration("soak", 60*time.Second, "duration of TestSoak (CI: 60s)")

// outcome of one checked call made by hand, to tell a request refused
// before it was read from one cut after it was accepted.
type callOutcome int

const (
	answered callOutcome = iota // a full answer that passed the check
	refused                     // no response at all (connection refused or closed before an answer)
	broken                      // a response that is not a full, correct answer
)

// checkedCall sends one checked batch and classifies what came back.
func checkedCall(c *keyservice.Client, client *oblivex.CheckedClient, inputs [][]byte) (callOutcome, error) {
	b, err := client.Blind(inputs)
	if err != nil {
		return broken, err
	}
	defer b.Close()
	suite := client.Suite()
	req, err := http.NewRequest(http.MethodPost, c.Base+keyservice.EvaluatePath(suite, keyservice.OPRF), bytes.NewReader(b.Request()))
	if err != nil {
		return broken, err
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return refused, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusServiceUnavailable {
		return refused, fmt.Errorf("status %d: the server is draining", resp.StatusCode)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		return broken, fmt.Errorf("status %d, %d bytes, %v", resp.StatusCode, len(body), err)
	}
	if _, err := b.Finalize(body); err != nil {
		return broken, err
	}
	return answered, nil
}

// loadGen runs clients goroutines sending checked batches (sizes cycling
// through sizes) until stop is closed, counting the outcomes.
type loadGen struct {
	answered, refused, broken atomic.Int64
	firstBroken               atomic.Value
	wg                        sync.WaitGroup
}

func startLoad(c *keyservice.Client, publicKey *oblivex.PublicKey, clients int, sizes []int, stop <-chan struct{},
	untilRefused bool) *loadGen {
	g := &loadGen{}
	client := must(oblivex.NewCheckedClient(publicKey.Suite(), oblivex.CheckCommittedKey, publicKey, 0))
	for i := 0; i < clients; i++ {
		g.wg.Add(1)
		go func(i int) {
			defer g.wg.Done()
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				outcome, err := checkedCall(c, client, inputsOf(fmt.Sprintf("client %d call %d", i, n), sizes[(i+n)%len(sizes)]))
				switch outcome {
				case answered:
					g.answered.Add(1)
				case refused:
					g.refused.Add(1)
					if untilRefused {
						return
					}
				case broken:
					g.broken.Add(1)
					g.firstBroken.CompareAndSwap(nil, err.Error())
				}
			}
		}(i)
	}
	return g
}

var stoppedLine = regexp.MustCompile(`stopped; requests \{"oprf": (\d+)\}`)

// TestShutdownUnderLoad: SIGTERM while 16 clients send: every request the
// server took is answered in full (the server's count equals the
// clients' verified answers), the others are refused before an answer
// (503 while it drains, or the connection closed), and the server exits
// cleanly.
func TestShutdownUnderLoad(t *testing.T) {
	e := newEnv(t)
	suite := oblivex.SuiteRistretto255
	keyFile, single := e.keyFile(t, suite)
	p := startServer(t, serverBin, append(e.tlsArgs(), "-key", fmt.Sprintf("%v=%s", suite, keyFile))...)
	stop := make(chan struct{})
	defer close(stop)
	g := startLoad(e.client(p), single.PublicKey(), 16, []int{1, 1, 7, 64, 255}, stop, true)
	for g.answered.Load() < 200 {
		time.Sleep(10 * time.Millisecond)
	}
	if err := p.stop(syscall.SIGTERM); err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, p.output())
	}
	g.wg.Wait() // every client ends on its first refusal
	if g.broken.Load() != 0 {
		t.Fatalf("%d requests half-answered or wrong, first: %v", g.broken.Load(), g.firstBroken.Load())
	}
	m := stoppedLine.FindStringSubmatch(p.output())
	if m == nil {
		t.Fatalf("no final count in the server's log:\n%s", p.output())
	}
	if served, _ := strconv.ParseInt(m[1], 10, 64); served != g.answered.Load() {
		t.Fatalf("the server answered %d requests, the clients received %d", served, g.answered.Load())
	}
}

// TestSoak: 16 clients for -soak (at least 60 s in CI) with mixed batch
// sizes, coalesced and not: no error, and the server's RSS stays within
// 8 MiB of its value after warm-up.
func TestSoak(t *testing.T) {
	e := newEnv(t)
	suite := oblivex.SuiteRistretto255
	keyFile, single := e.keyFile(t, suite)
	// A quota above what 16 clients send in the soak (TestQuota tests it).
	p := startServer(t, serverBin, append(e.tlsArgs(), "-key", fmt.Sprintf("%v=%s", suite, keyFile), "-quota", "1000000000000")...)
	c := e.client(p)
	stop := make(chan struct{})
	g := startLoad(c, single.PublicKey(), 16, []int{1, 1, 1, 3, 16, 255}, stop, false)
	warmUp := *soak / 6
	start := time.Now()
	time.Sleep(warmUp)
	base := p.rss(t)
	var high, low int64 = base, base
	for time.Since(start) < *soak {
		time.Sleep(time.Second)
		rss := p.rss(t)
		if rss > high {
			high = rss
		}
		if rss < low {
			low = rss
		}
	}
	close(stop)
	g.wg.Wait()
	t.Logf("%d requests in %v; RSS after warm-up %d MiB, then %d..%d MiB", g.answered.Load(), *soak, base>>20, low>>20, high>>20)
	if g.broken.Load() != 0 || g.refused.Load() != 0 {
		t.Fatalf("errors: %d bad answers, %d refused; first: %v", g.broken.Load(), g.refused.Load(), g.firstBroken.Load())
	}
	const slack = 8 << 20
	if high-base > slack || base-low > slack {
		t.Fatalf("RSS moved from %d to %d..%d bytes: more than 8 MiB", base, low, high)
	}
	m := metricsOf(t, c)
	if errs := string(m["errors"]); errs != "{}" {
		t.Fatalf("the server counted errors: %s", errs)
	}
	if batches, requests := counter(t, m, "coalesced", "batches"), counter(t, m, "coalesced", "requests"); batches == 0 || batches >= requests {
		t.Fatalf("%d small requests in %d batches: none coalesced", requests, batches)
	}
}
