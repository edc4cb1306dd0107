package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"expvar"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	oblivex "github.com/oblivex/oblivex/bindings/go"
)

// TestQuotaWindows: counts per client, refusals with the wait to the
// window's end, refunds within a window only, a new window for all.
func TestQuotaWindows(t *testing.T) {
	now := time.Unix(1000, 0)
	q := newQuota(10, 2, time.Minute, func() time.Time { return now })
	first, _, ok := q.take("a", 7)
	if !ok {
		t.Fatal("7 of 10 refused")
	}
	if _, _, ok := q.take("b", 10); !ok {
		t.Fatal("another client's quota is shared")
	}
	now = now.Add(20 * time.Second)
	if _, wait, ok := q.take("a", 4); ok || wait != 40*time.Second {
		t.Fatalf("11 of 10: granted %v, wait %v", ok, wait)
	}
	q.refund("a", 7, first)
	if _, _, ok := q.take("a", 10); !ok {
		t.Fatal("refunded elements not given back")
	}
	now = now.Add(time.Minute)
	stale, _, ok := q.take("a", 10)
	if !ok {
		t.Fatal("a new window did not start")
	}
	q.refund("a", 10, first) // from an old window: ignored
	if _, _, ok := q.take("a", 1); ok {
		t.Fatal("an old window's refund was counted")
	}
	q.refund("a", 10, stale)
	if _, _, ok := q.take("a", 10); !ok {
		t.Fatal("refund in the current window not given back")
	}
}

// TestRefusalBudgetCounts: each client's refused requests count against a
// budget of their own; past it the client is refused with the wait to
// the window's end, others are not; a client with a refused request is
// not coalesced; a new window starts every budget again.
func TestRefusalBudgetCounts(t *testing.T) {
	now := time.Unix(1000, 0)
	q := newQuota(10, 2, time.Minute, func() time.Time { return now })
	s := &service{quota: q, metrics: newMetrics(), coalesceBelow: 8, coalescers: map[oblivex.Suite]*coalescer{
		oblivex.SuiteRistretto255: {}}}
	if s.quota.hasRefusals("a") || s.coalescerFor("a", oblivex.SuiteRistretto255, 1) == nil {
		t.Fatal("a client without refusals is not coalesced")
	}
	for i := 0; i < 2; i++ {
		if refused := s.admitClient("a"); refused != nil {
			t.Fatalf("refused after %d refusals of 2: %v", i, refused.reason)
		}
		s.chargeRefusal("a", &refusal{status: http.StatusBadRequest})
	}
	s.chargeRefusal("b", &refusal{status: http.StatusTooManyRequests}) // the quota's: not counted
	s.chargeRefusal("b", &refusal{status: http.StatusServiceUnavailable})
	if s.coalescerFor("a", oblivex.SuiteRistretto255, 1) != nil {
		t.Error("a client with refused requests is still coalesced")
	}
	if s.coalescerFor("b", oblivex.SuiteRistretto255, 1) == nil {
		t.Error("429 and 503 counted as the client's refusals")
	}
	now = now.Add(20 * time.Second)
	refused := s.admitClient("a")
	if refused == nil || refused.status != http.StatusTooManyRequests || refused.retryAfter != 40*time.Second {
		t.Fatalf("past the refusal budget: %+v", refused)
	}
	if s.metrics.refusalBudgetRefusals.Value() != 1 {
		t.Error("the budget's refusal not counted")
	}
	if s.admitClient("b") != nil {
		t.Error("another client's refusal budget is shared")
	}
	if _, _, ok := q.take("a", 10); !ok {
		t.Error("refusals took from the element quota")
	}
	now = now.Add(time.Minute)
	if s.admitClient("a") != nil || q.hasRefusals("a") {
		t.Error("a new window did not start the refusal budget again")
	}
}

// TestCoalescer: concurrent small requests get exactly their own answers
// (the plain evaluation's), also in a batch where one holds an invalid
// element. With a delay that never ends, batches close only when full:
// 40 one-element requests make exactly 5 batches of 8.
func TestCoalescer(t *testing.T) {
	suite := oblivex.SuiteRistretto255
	server := must(oblivex.GenerateOPRFServer(suite))
	defer server.Close()
	m := newMetrics()
	c := newCoalescer(server, time.Hour, 8, 2, m)
	client := must(oblivex.NewOPRFClient(suite))
	var wg sync.WaitGroup
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if i%10 == 9 {
				if _, err := c.evaluate(bytes.Repeat([]byte{0xff}, 32)); !errors.Is(err, oblivex.ErrInvalidElement) {
					t.Errorf("invalid element: %v", err)
				}
				return
			}
			b := must(client.Blind(inputsOf(fmt.Sprint(i), 1)))
			defer b.Close()
			got := must(c.evaluate(b.Request()))
			if want := must(server.Evaluate(b.Request())); !bytes.Equal(got, want) {
				t.Errorf("request %d: another answer than its own", i)
			}
		}(i)
	}
	wg.Wait()
	c.close()
	// Batches go to a worker as soon as one is free, so how many form
	// depends on the scheduling: each request went through exactly one.
	batches, requests := m.coalesced.Get("batches").(*expvar.Int).Value(), m.coalesced.Get("requests").String()
	if requests != "40" || batches < 1 || batches > 40 {
		t.Fatalf("%s requests in %d batches: want 40 in 1 to 40", requests, batches)
	}
}

// TestSecretFileMode: a key file others may read or write is refused.
func TestSecretFileMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "key")
	writeFile(t, path, []byte("secret"), 0o600)
	if _, err := readSecretFile(path); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []os.FileMode{0o640, 0o604, 0o620, 0o602} {
		os.Chmod(path, mode)
		if _, err := readSecretFile(path); !errors.Is(err, errExposed) {
			t.Errorf("mode %v: %v", mode, err)
		}
	}
}

// TestCertificateClientsByPublicKey: two certificates of the CA with one
// common name (and a name that would inject a log line) are two clients,
// each named by its public key, so they share no quota; one key is one
// client whatever its certificate.
func TestCertificateClientsByPublicKey(t *testing.T) {
	p := newPKI(t, t.TempDir())
	load := func(file string) *x509.Certificate {
		block, _ := pem.Decode(must(os.ReadFile(file)))
		return must(x509.ParseCertificate(block.Bytes))
	}
	// Issued to one file name: each is read before the next replaces it.
	name := "carol\nforged log line"
	first, _ := p.issue(t, name, false)
	one := load(first)
	second, _ := p.issue(t, name, false)
	other := load(second)
	a := &authenticator{}
	clientOf := func(cert *x509.Certificate) string {
		r := &http.Request{TLS: &tls.ConnectionState{VerifiedChains: [][]*x509.Certificate{{cert}}}}
		return must(a.client(r))
	}
	if clientOf(one) == clientOf(other) {
		t.Fatalf("two keys under one common name are one client, %q", clientOf(one))
	}
	for _, cert := range []*x509.Certificate{one, other} {
		hash := sha256.Sum256(cert.RawSubjectPublicKeyInfo)
		if want := "cert:" + hex.EncodeToString(hash[:]); clientOf(cert) != want {
			t.Errorf("client %q, want %q", clientOf(cert), want)
		}
	}
	reissued := *one
	reissued.Subject.CommonName = "someone else"
	if clientOf(&reissued) != clientOf(one) {
		t.Error("one key under another name is another client")
	}
}

// TestStreamHeaderReservesNoBody: a streamed request's header announcing
// the largest body (65535 FFDHE-4096 elements, 32 MiB), followed by a few
// bytes and the end of the stream, makes the server allocate about what
// arrived, not what was announced.
func TestStreamHeaderReservesNoBody(t *testing.T) {
	s := &service{maxElements: 65535, streams: newStreamSet(1), idleTimeout: time.Second, bodyTimeout: time.Second}
	keys := &suiteKeys{suite: oblivex.SuiteFFDHE4096}
	announced := s.maxElements * keys.suite.ElementLen()
	var header [4]byte
	binary.BigEndian.PutUint32(header[:], uint32(announced))
	server, client := net.Pipe()
	defer server.Close()
	defer client.Close()
	r := bufio.NewReader(io.MultiReader(bytes.NewReader(header[:]), bytes.NewReader(make([]byte, 100))))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	bodies, last := s.readRound(server, r, keys)
	runtime.ReadMemStats(&after)
	if len(bodies) != 0 || last == nil || last.status != 0 {
		t.Fatalf("a cut body: %d requests read, end %+v; want none, and a silent end", len(bodies), last)
	}
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 1<<20 {
		t.Fatalf("a header announcing %d bytes, and 100 sent: %d bytes allocated", announced, allocated)
	}
}

// countingServer counts the library calls of the coalescer's server.
type countingServer struct {
	*oblivex.OPRFServer
	calls atomic.Int64
}

func (s *countingServer) Evaluate(blinded []byte) ([]byte, error) {
	s.calls.Add(1)
	return s.OPRFServer.Evaluate(blinded)
}

// TestCoalescerPoisonedBatch: one invalid request in a batch of 64 fails
// alone and the 63 others get their own answers, in about 2·log2(64)
// library calls (bisection), not one call per request.
func TestCoalescerPoisonedBatch(t *testing.T) {
	suite := oblivex.SuiteRistretto255
	server := &countingServer{OPRFServer: must(oblivex.GenerateOPRFServer(suite))}
	defer server.Close()
	m := newMetrics()
	c := newCoalescer(server, time.Hour, 1024, 1, m)
	defer c.close()
	client := must(oblivex.NewOPRFClient(suite))
	batch := make([]*job, 64)
	requests := make([][]byte, len(batch))
	for i := range batch {
		requests[i] = must(client.Blind(inputsOf(fmt.Sprint("poisoned ", i), 1))).Request()
		if i == 37 {
			requests[i] = bytes.Repeat([]byte{0xff}, suite.ElementLen())
		}
		batch[i] = &job{blinded: requests[i], answer: make(chan answer, 1)}
	}
	c.run(batch)
	for i, j := range batch {
		a := <-j.answer
		if i == 37 {
			if !errors.Is(a.err, oblivex.ErrInvalidElement) {
				t.Errorf("the invalid request: %v", a.err)
			}
			continue
		}
		if want := must(server.OPRFServer.Evaluate(requests[i])); a.err != nil || !bytes.Equal(a.evaluated, want) {
			t.Errorf("request %d: %v, or another answer than its own", i, a.err)
		}
	}
	if calls := server.calls.Load(); calls > 2*6+1 {
		t.Errorf("%d library calls for a batch of 64 with one invalid request, want at most 13", calls)
	}
}
