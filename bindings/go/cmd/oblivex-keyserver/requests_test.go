package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"sync"
	"testing"

	oblivex "github.com/oblivex/oblivex/bindings/go"
	"github.com/oblivex/oblivex/bindings/go/internal/keyservice"
)

// post sends body to path with c's token and returns the status.
func post(t *testing.T, c *keyservice.Client, path string, body []byte, header map[string]string) int {
	t.Helper()
	return must(send(c, path, body, header))
}

// send posts body to path with c's token and header and returns the
// status, or the transport's error (the server gone, say).
func send(c *keyservice.Client, path string, body []byte, header map[string]string) (int, error) {
	req, err := http.NewRequest(http.MethodPost, c.Base+path, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return 0, err
	}
	return resp.StatusCode, nil
}

// TestMalformedRequests: malformed, truncated, oversized and wrong-suite
// bodies and wrong endpoints are refused with 4xx, evaluate nothing, and
// the server keeps answering, also the small requests coalesced with a
// bad one (within the client's refusal budget).
func TestMalformedRequests(t *testing.T) {
	e := newEnv(t)
	suite := oblivex.SuiteRistretto255
	keyFile, single := e.keyFile(t, suite)
	p := startServer(t, serverBin, append(e.tlsArgs(), "-key", fmt.Sprintf("%v=%s", suite, keyFile), "-max-elements", "64")...)
	c := e.client(p)
	good := must(must(oblivex.NewOPRFClient(suite)).Blind(inputsOf("x", 2))).Request()
	p256 := must(must(oblivex.NewOPRFClient(oblivex.SuiteP256)).Blind(inputsOf("x", 32))).Request() // 1056 bytes: 33 "elements"
	invalid := bytes.Repeat([]byte{0xff}, 32)
	oprf := keyservice.EvaluatePath(suite, keyservice.OPRF)
	// A bad element inside a coalesced batch (the client's first refused
	// request: its later ones are evaluated alone, not coalesced).
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if i == 0 {
				if status := post(t, c, oprf, invalid, nil); status != 400 {
					t.Errorf("bad element among coalesced requests: %d", status)
				}
				return
			}
			inputs := inputsOf(fmt.Sprintf("coalesced %d", i), 1)
			outputs, err := keyservice.Checked(context.Background(), c, single.PublicKey(), inputs)
			if err != nil || !reflect.DeepEqual(outputs, singleKey(t, single, inputs)) {
				t.Errorf("request %d beside a bad one: %v", i, err)
			}
		}(i)
	}
	wg.Wait()
	evaluated := counter(t, metricsOf(t, c), "elements", "oprf")
	cases := []struct {
		name   string
		path   string
		body   []byte
		header map[string]string
		status int
	}{
		{"empty", oprf, nil, nil, 400},
		{"truncated", oprf, good[:len(good)-1], nil, 400},
		{"not an element", oprf, invalid, nil, 400},
		{"one bad element among good ones", oprf, append(append([]byte{}, good...), invalid...), nil, 400},
		{"oversized", oprf, bytes.Repeat(good[:32], 65), nil, 413},
		{"wrong suite", oprf, p256, nil, 400},
		{"wrong suite's length", oprf, p256[:33], nil, 400},
		{"unknown suite", "/v1/nosuch/evaluate-oprf", good, nil, 404},
		{"suite without a key here", keyservice.EvaluatePath(oblivex.SuiteP256, keyservice.OPRF), p256, nil, 404},
		{"threshold on a single key", keyservice.EvaluatePath(suite, keyservice.Threshold), good, nil, 404},
		{"unknown protocol", "/v1/" + suite.String() + "/evaluate-nope", good, nil, 404},
		{"POPRF info not hex", keyservice.EvaluatePath(suite, keyservice.POPRF), good, map[string]string{keyservice.InfoHeader: "zz"}, 400},
	}
	for _, tc := range cases {
		if status := post(t, c, tc.path, tc.body, tc.header); status != tc.status {
			t.Errorf("%s: status %d, want %d", tc.name, status, tc.status)
		}
	}
	// A GET on evaluate.
	get := must(http.NewRequest(http.MethodGet, c.Base+oprf, nil))
	get.Header.Set("Authorization", "Bearer "+c.Token)
	resp := must(c.HTTP.Do(get))
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET evaluate: %d", resp.StatusCode)
	}
	m := metricsOf(t, c)
	if n := counter(t, m, "elements", "oprf") - evaluated; n != 0 {
		t.Fatalf("%d elements evaluated for refused requests", n)
	}
	// Still serving, every mode.
	inputs := inputsOf("after", 3)
	outputs, err := keyservice.Checked(context.Background(), c, single.PublicKey(), inputs)
	if err != nil || !reflect.DeepEqual(outputs, singleKey(t, single, inputs)) {
		t.Fatalf("after the refusals: %v", err)
	}
	voprf := must(must(oblivex.NewVOPRFClient(single.PublicKey())).Blind(inputs))
	answer := must(c.Evaluate(context.Background(), suite, keyservice.VOPRF, voprf.Request(), nil, nil))
	split := len(answer) - suite.ProofLen()
	if _, err := voprf.Finalize(answer[:split], answer[split:]); err != nil {
		t.Fatalf("VOPRF: %v", err)
	}
	info := []byte("tenant 7")
	poprf := must(must(oblivex.NewPOPRFClient(single.PublicKey())).Blind(inputs, info))
	answer = must(c.Evaluate(context.Background(), suite, keyservice.POPRF, poprf.Request(), info, nil))
	if _, err := poprf.Finalize(answer[:split], answer[split:]); err != nil {
		t.Fatalf("POPRF: %v", err)
	}
	if key := must(c.PublicKey(context.Background(), suite)); !key.Equal(single.PublicKey()) {
		t.Fatal("the published public key differs")
	}
}

// TestQuota: every element counts (a checked batch of n inputs is n + 1
// elements); past the quota 429 with Retry-After; the counters add up;
// another client keeps its own quota.
func TestQuota(t *testing.T) {
	e := newEnv(t)
	suite := oblivex.SuiteRistretto255
	keyFile, single := e.keyFile(t, suite)
	p := startServer(t, serverBin, append(e.tlsArgs(), "-key", fmt.Sprintf("%v=%s", suite, keyFile),
		"-quota", "100", "-quota-window", "1h", "-max-elements", "64")...)
	c := e.client(p)
	for i := 0; i < 10; i++ { // 10 batches of 9 inputs: 100 elements
		if _, err := keyservice.Checked(context.Background(), c, single.PublicKey(), inputsOf("q", 9)); err != nil {
			t.Fatalf("batch %d: %v", i, err)
		}
	}
	_, err := keyservice.Checked(context.Background(), c, single.PublicKey(), inputsOf("q", 1))
	var refusal *keyservice.StatusError
	if !errors.As(err, &refusal) || refusal.Code != http.StatusTooManyRequests || refusal.RetryAfter <= 0 {
		t.Fatalf("over the quota: %v", err)
	}
	bob := &keyservice.Client{Base: c.Base, HTTP: c.HTTP, Token: bobToken}
	if _, err := keyservice.Checked(context.Background(), bob, single.PublicKey(), inputsOf("b", 3)); err != nil {
		t.Fatalf("bob's own quota: %v", err)
	}
	m := metricsOf(t, c)
	for _, want := range []struct {
		group, key string
		value      int64
	}{
		{"elements", "oprf", 104}, {"requests", "oprf", 11}, {"quota_refusals", "", 1}, {"errors", "429", 1},
	} {
		if got := counter(t, m, want.group, want.key); got != want.value {
			t.Errorf("metrics %s %s: %d, want %d", want.group, want.key, got, want.value)
		}
	}
	var histogram map[string]int64
	if err := json.Unmarshal(m["latency"], &histogram); err != nil {
		t.Fatal(err)
	}
	var observed int64
	for _, n := range histogram {
		observed += n
	}
	if observed != 11 {
		t.Errorf("latency histogram holds %d calls, want 11", observed)
	}
}

// TestRefusalBudget: a client's refused requests count against its own
// budget (-max-refusals-per-client): past it even its valid requests are
// refused, 429 with Retry-After, on requests and streams, until the
// window ends; another client is served; the counter adds up.
func TestRefusalBudget(t *testing.T) {
	e := newEnv(t)
	suite := oblivex.SuiteRistretto255
	keyFile, single := e.keyFile(t, suite)
	p := startServer(t, serverBin, append(e.tlsArgs(), "-key", fmt.Sprintf("%v=%s", suite, keyFile),
		"-max-refusals-per-client", "3", "-quota-window", "1h")...)
	c := e.client(p)
	oprf := keyservice.EvaluatePath(suite, keyservice.OPRF)
	invalid := bytes.Repeat([]byte{0xff}, suite.ElementLen())
	for i := 0; i < 3; i++ {
		if status := post(t, c, oprf, invalid, nil); status != http.StatusBadRequest {
			t.Fatalf("invalid request %d: %d", i, status)
		}
	}
	_, err := keyservice.Checked(context.Background(), c, single.PublicKey(), inputsOf("r", 1))
	var refusal *keyservice.StatusError
	if !errors.As(err, &refusal) || refusal.Code != http.StatusTooManyRequests || refusal.RetryAfter <= 0 {
		t.Fatalf("a valid request past the refusal budget: %v", err)
	}
	stream := must(c.OpenStream(context.Background(), suite))
	defer stream.Close()
	blinded := must(must(oblivex.NewOPRFClient(suite)).Blind(inputsOf("s", 1))).Request()
	if _, err := stream.Evaluate(blinded); !errors.As(err, &refusal) || refusal.Code != http.StatusTooManyRequests {
		t.Fatalf("a streamed request past the refusal budget: %v", err)
	}
	bob := &keyservice.Client{Base: c.Base, HTTP: c.HTTP, Token: bobToken}
	if _, err := keyservice.Checked(context.Background(), bob, single.PublicKey(), inputsOf("b", 1)); err != nil {
		t.Fatalf("bob's own refusal budget: %v", err)
	}
	if got := counter(t, metricsOf(t, c), "refusal_budget_refusals", ""); got != 2 {
		t.Errorf("refusal_budget_refusals %d, want 2", got)
	}
}

// TestAuthentication: mutual TLS and bearer tokens; clients without a
// valid certificate or token are refused; plaintext only on loopback;
// key files readable by others refused.
func TestAuthentication(t *testing.T) {
	e := newEnv(t)
	suite := oblivex.SuiteRistretto255
	keyFile, single := e.keyFile(t, suite)
	keyArg := fmt.Sprintf("%v=%s", suite, keyFile)
	mtls := startServer(t, serverBin, "-tls-cert", e.pki.serverCert, "-tls-key", e.pki.serverKy, "-client-ca", e.pki.caFile, "-key", keyArg)
	certFile, certKey := e.pki.issue(t, "carol", false)
	withCert := must(keyservice.NewHTTPClient(keyservice.TransportConfig{CAFile: e.pki.caFile, CertFile: certFile, KeyFile: certKey}))
	inputs := inputsOf("auth", 2)
	if _, err := keyservice.Checked(context.Background(), &keyservice.Client{Base: mtls.url("https"), HTTP: withCert},
		single.PublicKey(), inputs); err != nil {
		t.Fatalf("a client certificate of the CA: %v", err)
	}
	other := newPKI(t, t.TempDir())
	otherCert, otherKey := other.issue(t, "mallory", false)
	foreign := must(keyservice.NewHTTPClient(keyservice.TransportConfig{CAFile: e.pki.caFile, CertFile: otherCert, KeyFile: otherKey}))
	for name, h := range map[string]*http.Client{"no certificate": e.httpTLS, "another CA's certificate": foreign} {
		if _, err := keyservice.Checked(context.Background(), &keyservice.Client{Base: mtls.url("https"), HTTP: h, Token: aliceToken},
			single.PublicKey(), inputs); err == nil {
			t.Errorf("mutual TLS, %s: accepted", name)
		}
	}
	tokens := startServer(t, serverBin, append(e.tlsArgs(), "-key", keyArg)...)
	for name, token := range map[string]string{"no token": "", "a wrong token": "alice-token-0123456789abcdeX"} {
		_, err := keyservice.Checked(context.Background(), &keyservice.Client{Base: tokens.url("https"), HTTP: e.httpTLS, Token: token},
			single.PublicKey(), inputs)
		var refusal *keyservice.StatusError
		if !errors.As(err, &refusal) || refusal.Code != http.StatusUnauthorized {
			t.Errorf("tokens, %s: %v", name, err)
		}
	}
	if _, err := keyservice.Checked(context.Background(), e.client(tokens), single.PublicKey(), inputs); err != nil {
		t.Fatalf("a valid token: %v", err)
	}
	// The connection is HTTP/2 (TLS ALPN).
	resp := must(e.httpTLS.Get(tokens.url("https") + keyservice.HealthPath))
	resp.Body.Close()
	if resp.ProtoMajor != 2 {
		t.Errorf("health over %s, want HTTP/2", resp.Proto)
	}
	// Refused configurations: the server exits with a reason.
	os.Chmod(keyFile, 0o640)
	refusedStart(t, "mode", append(e.tlsArgs(), "-key", keyArg)...)
	os.Chmod(keyFile, 0o600)
	refusedStart(t, "loopback", "-plaintext", "-tokens", e.tokens, "-key", keyArg, "-listen", "0.0.0.0:0")
	refusedStart(t, "client authentication", "-tls-cert", e.pki.serverCert, "-tls-key", e.pki.serverKy, "-key", keyArg)
	plain := startServer(t, serverBin, "-plaintext", "-tokens", e.tokens, "-key", keyArg)
	if _, err := keyservice.Checked(context.Background(), &keyservice.Client{Base: plain.url("http"), Token: aliceToken},
		single.PublicKey(), inputs); err != nil {
		t.Fatalf("plaintext on loopback: %v", err)
	}
}

// refusedStart runs the server with args and expects it to exit at once
// with an error naming reason.
func refusedStart(t *testing.T, reason string, args ...string) {
	t.Helper()
	cmd := exec.Command(serverBin, args...)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), reason) {
		t.Errorf("server with %v: %v, %s (want an exit naming %q)", args, err, out, reason)
	}
}

// TestKeyclient: the command-line client's keygen, deal and checked
// commands against a server, outputs as hex lines.
func TestKeyclient(t *testing.T) {
	e := newEnv(t)
	keyFile := e.dir + "/cli.key"
	if out, err := exec.Command(clientBin, "keygen", "-out", keyFile).CombinedOutput(); err != nil {
		t.Fatalf("keygen: %v %s", err, out)
	}
	if info := must(os.Stat(keyFile)); info.Mode().Perm() != 0o600 {
		t.Fatalf("keygen wrote mode %v", info.Mode().Perm())
	}
	suite := oblivex.SuiteRistretto255
	secret := must(os.ReadFile(keyFile))
	single := must(oblivex.NewOPRFServer(suite, secret))
	defer single.Close()
	p := startServer(t, serverBin, append(e.tlsArgs(), "-key", fmt.Sprintf("%v=%s", suite, keyFile))...)
	tokenFile := e.dir + "/alice.token"
	writeFile(t, tokenFile, []byte(aliceToken+"\n"), 0o600)
	cmd := exec.Command(clientBin, "checked", "-server", p.url("https"), "-public-key", keyFile+".pub",
		"-ca", e.pki.caFile, "-token-file", tokenFile)
	cmd.Stdin = strings.NewReader("alice\nbob\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("checked: %v", err)
	}
	var want strings.Builder
	for _, o := range singleKey(t, single, [][]byte{[]byte("alice"), []byte("bob")}) {
		fmt.Fprintf(&want, "%x\n", o)
	}
	if string(out) != want.String() {
		t.Fatalf("checked printed %q, want %q", out, want.String())
	}
	dealDir := e.dir + "/deal"
	if out, err := exec.Command(clientBin, "deal", "-t", "2", "-m", "3", "-out", dealDir).CombinedOutput(); err != nil {
		t.Fatalf("deal: %v %s", err, out)
	}
	commitments := must(oblivex.ParseCommitments(suite, must(os.ReadFile(dealDir+"/commitments.bin"))))
	defer commitments.Close()
	var servers []string
	for id := 1; id <= 3; id++ {
		share := fmt.Sprintf("%s/share-%d.key", dealDir, id)
		p := startServer(t, serverBin, append(e.tlsArgs(), "-share", fmt.Sprintf("%v=%s", suite, share),
			"-commitments", fmt.Sprintf("%v=%s/commitments.bin", suite, dealDir))...)
		servers = append(servers, fmt.Sprintf("%d=%s", id, p.url("https")))
	}
	cmd = exec.Command(clientBin, "threshold", "-servers", strings.Join(servers, ","), "-public", dealDir+"/commitments.bin",
		"-ca", e.pki.caFile, "-token-file", tokenFile, "-raw")
	cmd.Stdin = strings.NewReader("alice\n")
	out, err = cmd.Output()
	if err != nil || len(out) != suite.OutputLen() {
		t.Fatalf("threshold: %v, %d bytes", err, len(out))
	}
}
