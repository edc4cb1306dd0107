package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	oblivex "github.com/oblivex/oblivex/bindings/go"
	"github.com/oblivex/oblivex/bindings/go/internal/keyservice"
)

// wantStatus fails unless err is a refusal with status.
func wantStatus(t *testing.T, what string, err error, status int) *keyservice.StatusError {
	t.Helper()
	var refusal *keyservice.StatusError
	if !errors.As(err, &refusal) || refusal.Code != status {
		t.Fatalf("%s: %v, want %d", what, err, status)
	}
	return refusal
}

// TestStream: requests sent back to back on one stream are answered in
// order, each with its own answer or refusal (400 nothing evaluated, 429
// with the wait, 413 ending the stream), every element counted once;
// the stream needs a token and an HTTP/1.1 upgrade.
func TestStream(t *testing.T) {
	e := newEnv(t)
	suite := oblivex.SuiteRistretto255
	keyFile, single := e.keyFile(t, suite)
	p := startServer(t, serverBin, append(e.tlsArgs(), "-key", fmt.Sprintf("%v=%s", suite, keyFile),
		"-quota", "10", "-max-elements", "4")...)
	c := e.client(p)
	request := func(n int) []byte {
		return must(must(oblivex.NewOPRFClient(suite)).Blind(inputsOf(fmt.Sprint("stream ", n), n))).Request()
	}
	invalid := bytes.Repeat([]byte{0xff}, suite.ElementLen())
	type frame struct {
		body   []byte
		status int
	}
	// Two groups, each sent back to back, the second once the first is
	// answered: a refused request gives its elements back when it is
	// answered, and then the quota of 10 holds exactly 1 + 3 + 2 + 4.
	groups := [][]frame{
		{{request(1), 200}, {request(3), 200}, {invalid, 400}, {nil, 400}, {request(2)[1:], 400}},
		{{request(2), 200}, {request(4), 200}, {request(1), 429}, {request(4)[:0], 400}},
	}
	s := must(c.OpenStream(context.Background(), suite))
	defer s.Close()
	for g, frames := range groups {
		for _, f := range frames {
			if err := s.Send(f.body); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Flush(); err != nil {
			t.Fatal(err)
		}
		for i, f := range frames {
			answer, err := s.Receive()
			if f.status != 200 {
				refusal := wantStatus(t, fmt.Sprintf("group %d frame %d", g, i), err, f.status)
				if f.status == 429 && refusal.RetryAfter <= 0 {
					t.Fatalf("group %d frame %d: 429 without a wait", g, i)
				}
				continue
			}
			if err != nil || !bytes.Equal(answer, must(single.Evaluate(f.body))) {
				t.Fatalf("group %d frame %d: %v, or another answer than its own", g, i, err)
			}
		}
	}
	// A request above -max-elements ends the stream after its 413.
	_, err := s.Evaluate(request(5))
	wantStatus(t, "5 elements", err, http.StatusRequestEntityTooLarge)
	if _, err := s.Evaluate(request(1)); err == nil {
		t.Fatal("the stream goes on after a 413")
	}
	m := metricsOf(t, c)
	for _, want := range []struct {
		group, key string
		value      int64
	}{
		{"requests", streamProtocol, 4}, {"elements", streamProtocol, 10}, {"requests", "streams", 1},
		{"errors", "400", 4}, {"errors", "429", 1}, {"errors", "413", 1}, {"quota_refusals", "", 1},
	} {
		if got := counter(t, m, want.group, want.key); got != want.value {
			t.Errorf("%s %s: %d, want %d", want.group, want.key, got, want.value)
		}
	}

	bad := *c
	bad.Token = "mallory-token-0123456789abcdef"
	_, err = bad.OpenStream(context.Background(), suite)
	wantStatus(t, "a wrong token", err, http.StatusUnauthorized)
	_, err = c.OpenStream(context.Background(), oblivex.SuiteP256)
	wantStatus(t, "a suite the server has no key of", err, http.StatusNotFound)
	// Without the upgrade (e.httpTLS speaks HTTP/2): 426.
	req := must(http.NewRequest(http.MethodGet, c.Base+keyservice.StreamPath(suite), nil))
	req.Header.Set("Authorization", "Bearer "+aliceToken)
	resp := must(c.HTTP.Do(req))
	resp.Body.Close()
	if resp.StatusCode != http.StatusUpgradeRequired {
		t.Fatalf("a GET without the upgrade: %d", resp.StatusCode)
	}
}

// TestStreamShutdown: SIGTERM with a stream open: every request the
// server read is answered, then the stream ends with a 503, and the
// server exits cleanly.
func TestStreamShutdown(t *testing.T) {
	e := newEnv(t)
	suite := oblivex.SuiteRistretto255
	keyFile, single := e.keyFile(t, suite)
	p := startServer(t, serverBin, append(e.tlsArgs(), "-key", fmt.Sprintf("%v=%s", suite, keyFile))...)
	s := must(e.client(p).OpenStream(context.Background(), suite))
	defer s.Close()
	request := must(must(oblivex.NewOPRFClient(suite)).Blind(inputsOf("drain", 1))).Request()
	want := must(single.Evaluate(request))
	if answer, err := s.Evaluate(request); err != nil || !bytes.Equal(answer, want) {
		t.Fatalf("before SIGTERM: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- p.stop(syscall.SIGTERM) }()
	// Until the server says 503, each request is answered in full.
	for i := 0; ; i++ {
		answer, err := s.Evaluate(request)
		if err != nil {
			wantStatus(t, fmt.Sprintf("request %d after SIGTERM", i), err, http.StatusServiceUnavailable)
			s.Close()
			break
		}
		if !bytes.Equal(answer, want) {
			t.Fatalf("request %d after SIGTERM: another answer", i)
		}
	}
	if err := <-exited; err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, p.output())
	}
}

// TestStreamLimits: a request header whose body never comes ends the
// stream at the body timeout (not the 2-minute idle timeout), and a
// client holds at most -max-streams-per-client streams at once.
func TestStreamLimits(t *testing.T) {
	e := newEnv(t)
	suite := oblivex.SuiteRistretto255
	keyFile, _ := e.keyFile(t, suite)
	p := startServer(t, serverBin, "-plaintext", "-tokens", e.tokens, "-key", fmt.Sprintf("%v=%s", suite, keyFile),
		"-stream-body-timeout", "300ms", "-max-streams-per-client", "2")
	base := p.url("http")

	// Bob's stream, upgraded by hand, then a header announcing 64 bytes,
	// and nothing.
	conn := must(net.Dial("tcp", strings.TrimPrefix(base, "http://")))
	defer conn.Close()
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: keys\r\nAuthorization: Bearer %s\r\nConnection: Upgrade\r\nUpgrade: %s\r\n\r\n",
		keyservice.StreamPath(suite), bobToken, keyservice.StreamUpgrade)
	r := bufio.NewReader(conn)
	resp := must(http.ReadResponse(r, nil))
	if resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("upgrade: %d", resp.StatusCode)
	}
	conn.Write([]byte{0, 0, 0, 64})
	started := time.Now()
	conn.SetReadDeadline(started.Add(10 * time.Second))
	if _, err := io.Copy(io.Discard, r); err != nil {
		t.Fatalf("the stream was not closed after a header without its body: %v", err)
	}
	if waited := time.Since(started); waited > 5*time.Second {
		t.Fatalf("the stream was closed after %v, not at the body timeout", waited)
	}

	c := &keyservice.Client{Base: base, Token: aliceToken}
	first := must(c.OpenStream(context.Background(), suite))
	second := must(c.OpenStream(context.Background(), suite))
	_, err := c.OpenStream(context.Background(), suite)
	wantStatus(t, "a third stream of one client", err, http.StatusTooManyRequests)
	bob := &keyservice.Client{Base: base, Token: bobToken}
	must(bob.OpenStream(context.Background(), suite)).Close() // another client's own count
	first.Close()
	second.Close()
	// Closed streams count no more (the server lets a closed stream's
	// last bytes drain first).
	deadline := time.Now().Add(5 * time.Second)
	for {
		s, err := c.OpenStream(context.Background(), suite)
		if err == nil {
			s.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a stream after closing both: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
