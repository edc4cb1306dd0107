package main

// The test harness: the binaries built once, test certificates, token
// files, server processes on loopback, and small helpers. Every server a
// test starts listens on 127.0.0.1 port 0 and is stopped when the test
// ends.

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	oblivex "github.com/oblivex/oblivex/bindings/go"
	"github.com/oblivex/oblivex/bindings/go/internal/keyservice"
)

// binaries built by TestMain.
var (
	serverBin, wrongKeyBin, clientBin string
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "keyserver-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	serverBin = filepath.Join(dir, "oblivex-keyserver")
	wrongKeyBin = filepath.Join(dir, "oblivex-keyserver-wrongkey")
	clientBin = filepath.Join(dir, "oblivex-keyclient")
	for _, build := range [][]string{
		{"build", "-o", serverBin, "."},
		{"build", "-tags", "oblivex_wrongkey", "-o", wrongKeyBin, "."},
		{"build", "-o", clientBin, "../oblivex-keyclient"},
	} {
		if out, err := exec.Command("go", build...).CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "go %v: %v\n%s", build, err, out)
			os.RemoveAll(dir)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// pki is a test CA with a server certificate for 127.0.0.1 and client
// certificates.
type pki struct {
	dir                  string
	ca                   *x509.Certificate
	caKey                *ecdsa.PrivateKey
	caFile               string
	serverCert, serverKy string
}

func newPKI(t *testing.T, dir string) *pki {
	t.Helper()
	key := must(ecdsa.GenerateKey(elliptic.P256(), rand.Reader))
	template := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "test CA"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign,
	}
	der := must(x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key))
	p := &pki{dir: dir, ca: must(x509.ParseCertificate(der)), caKey: key, caFile: filepath.Join(dir, "ca.pem")}
	writePEM(t, p.caFile, "CERTIFICATE", der, 0o644)
	p.serverCert, p.serverKy = p.issue(t, "server", true)
	return p
}

// issue makes a certificate signed by the CA (for 127.0.0.1 if server)
// and returns its certificate and key files.
func (p *pki) issue(t *testing.T, name string, server bool) (string, string) {
	t.Helper()
	key := must(ecdsa.GenerateKey(elliptic.P256(), rand.Reader))
	template := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: name},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	if server {
		template.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
		template.IPAddresses = []net.IP{net.IPv4(127, 0, 0, 1)}
	}
	der := must(x509.CreateCertificate(rand.Reader, template, p.ca, &key.PublicKey, p.caKey))
	keyDER := must(x509.MarshalECPrivateKey(key))
	certFile, keyFile := filepath.Join(p.dir, name+".pem"), filepath.Join(p.dir, name+"-key.pem")
	writePEM(t, certFile, "CERTIFICATE", der, 0o644)
	writePEM(t, keyFile, "EC PRIVATE KEY", keyDER, 0o600)
	return certFile, keyFile
}

func writePEM(t *testing.T, path, kind string, der []byte, mode os.FileMode) {
	t.Helper()
	writeFile(t, path, pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der}), mode)
}

func writeFile(t *testing.T, path string, b []byte, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, b, mode); err != nil {
		t.Fatal(err)
	}
}

// must passes v through, or panics on an error the test does not expect
// (the servers die with the test binary: see launch).
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// process is a running keyserver.
type process struct {
	cmd    *exec.Cmd
	addr   string
	done   chan struct{}
	mu     sync.Mutex
	log    strings.Builder
	exited error
}

var listening = regexp.MustCompile(`listening on (127\.0\.0\.1:\d+)`)

// startServer runs bin with args (plus -listen 127.0.0.1:0) and waits
// until it listens; the test's end stops it.
func startServer(t *testing.T, bin string, args ...string) *process {
	t.Helper()
	p, err := launch(bin, args...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.stop(syscall.SIGKILL) })
	return p
}

// launch starts bin and waits for its "listening on" line, or its exit.
func launch(bin string, args ...string) (*process, error) {
	cmd := exec.Command(bin, append([]string{"-listen", "127.0.0.1:0"}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // no server outlives a failed test
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &process{cmd: cmd, done: make(chan struct{})}
	addr := make(chan string, 1)
	go func() {
		scanner := bufio.NewScanner(stderr)
		for scanner.Scan() {
			line := scanner.Text()
			p.mu.Lock()
			p.log.WriteString(line + "\n")
			p.mu.Unlock()
			if m := listening.FindStringSubmatch(line); m != nil {
				addr <- m[1]
			}
		}
		p.exited = cmd.Wait()
		close(p.done)
	}()
	select {
	case p.addr = <-addr:
		return p, nil
	case <-p.done:
		return nil, fmt.Errorf("%s exited (%v): %s", bin, p.exited, p.output())
	}
}

// output is what the server logged so far.
func (p *process) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String()
}

// stop signals the server and waits for it to exit.
func (p *process) stop(sig syscall.Signal) error {
	select {
	case <-p.done:
		return p.exited
	default:
	}
	p.cmd.Process.Signal(sig)
	<-p.done
	return p.exited
}

// url is the server's base URL.
func (p *process) url(scheme string) string { return scheme + "://" + p.addr }

// rss is the server's resident set size in bytes.
func (p *process) rss(t *testing.T) int64 {
	t.Helper()
	status := must(os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid)))
	for _, line := range strings.Split(string(status), "\n") {
		var kb int64
		if _, err := fmt.Sscanf(line, "VmRSS: %d kB", &kb); err == nil {
			return kb << 10
		}
	}
	t.Fatal("no VmRSS")
	return 0
}

// env is a test's scratch directory with a CA and a token file for the
// clients "alice" and "bob".
type env struct {
	dir     string
	pki     *pki
	tokens  string
	httpTLS *http.Client // trusts the CA, no client certificate
}

const (
	aliceToken = "alice-token-0123456789abcdef"
	bobToken   = "bob-token-0123456789abcdef"
)

func newEnv(t *testing.T) *env {
	t.Helper()
	dir := t.TempDir()
	e := &env{dir: dir, pki: newPKI(t, dir), tokens: filepath.Join(dir, "tokens")}
	writeFile(t, e.tokens, []byte("# name token\nalice "+aliceToken+"\nbob "+bobToken+"\n"), 0o600)
	e.httpTLS = must(keyservice.NewHTTPClient(keyservice.TransportConfig{CAFile: e.pki.caFile, Conns: 32}))
	return e
}

// tlsArgs are the server flags of TLS with bearer tokens.
func (e *env) tlsArgs() []string {
	return []string{"-tls-cert", e.pki.serverCert, "-tls-key", e.pki.serverKy, "-tokens", e.tokens}
}

// client is alice's client of p.
func (e *env) client(p *process) *keyservice.Client {
	return &keyservice.Client{Base: p.url("https"), HTTP: e.httpTLS, Token: aliceToken}
}

// keyFile writes a fresh key of suite and returns its file and the
// server holding it.
func (e *env) keyFile(t *testing.T, suite oblivex.Suite) (string, *oblivex.OPRFServer) {
	t.Helper()
	server := must(oblivex.GenerateOPRFServer(suite))
	t.Cleanup(func() { server.Close() })
	path := filepath.Join(e.dir, fmt.Sprintf("%v.key", suite))
	writeFile(t, path, must(server.SecretKey()), 0o600)
	return path, server
}

// metricsOf fetches p's counters.
func metricsOf(t *testing.T, c *keyservice.Client) map[string]json.RawMessage {
	t.Helper()
	req := must(http.NewRequestWithContext(context.Background(), http.MethodGet, c.Base+keyservice.MetricsPath, nil))
	req.Header.Set("Authorization", "Bearer "+c.Token)
	resp := must(c.HTTP.Do(req))
	defer resp.Body.Close()
	var m map[string]json.RawMessage
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// counter reads metrics[group][key] (0 if absent).
func counter(t *testing.T, m map[string]json.RawMessage, group, key string) int64 {
	t.Helper()
	if key == "" {
		var v int64
		json.Unmarshal(m[group], &v)
		return v
	}
	var g map[string]int64
	json.Unmarshal(m[group], &g)
	return g[key]
}

// inputsOf makes n distinct inputs.
func inputsOf(prefix string, n int) [][]byte {
	inputs := make([][]byte, n)
	for i := range inputs {
		inputs[i] = []byte(fmt.Sprintf("%s-%d", prefix, i))
	}
	return inputs
}

// singleKey is the plain OPRF of inputs under server's key, in process:
// what every deployment's outputs must equal.
func singleKey(t *testing.T, server *oblivex.OPRFServer, inputs [][]byte) [][]byte {
	t.Helper()
	client := must(oblivex.NewOPRFClient(server.Suite()))
	b := must(client.Blind(inputs))
	defer b.Close()
	return must(b.Finalize(must(server.Evaluate(b.Request()))))
}
