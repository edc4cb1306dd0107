// Command oblivex-keyserver serves OPRF keys and threshold key shares over
// HTTPS (HTTP/1.1 and HTTP/2): the reference service of docs/DEPLOYMENT.md.
//
//	oblivex-keyserver -listen :8443 -tls-cert server.crt -tls-key server.key \
//	    -client-ca clients.crt | -tokens tokens.txt \
//	    -key ristretto255-SHA512=oprf.key | -share ristretto255-SHA512=share-1.key \
//	    -commitments ristretto255-SHA512=commitments.bin ...
//
// Endpoints (package internal/keyservice): POST
// /v1/SUITE/evaluate-{oprf,voprf,poprf,threshold} (the body is the
// library's wire request), GET /v1/SUITE/stream-oprf (an HTTP/1.1
// upgrade to framed plain-OPRF requests), GET /v1/SUITE/public-key and
// /v1/SUITE/commitments, GET /healthz, GET /metrics (expvar JSON,
// authenticated). Every client is authenticated (a verified TLS client
// certificate, or a bearer token from -tokens) and has a quota of
// elements per window (durable across restarts with -quota-state);
// SIGTERM or SIGINT drains the server: requests in
// flight are answered, new ones refused, then the keys are wiped.
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"expvar"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"

	oblivex "github.com/oblivex/oblivex/bindings/go"
	"github.com/oblivex/oblivex/bindings/go/internal/keyservice"
)

// config is the command line.
type config struct {
	listen                         string
	tlsCert, tlsKey, clientCA      string
	tokens                         string
	plaintext                      bool
	keys, shares, commitments      suitePaths
	blsKeySet                      string
	maxElements                    int
	quota                          int64
	quotaWindow                    time.Duration
	quotaState                     string
	maxRefusalsPerClient           int64
	coalesceDelay                  time.Duration
	coalesceBelow, coalesceMax     int
	readHeaderTimeout, readTimeout time.Duration
	writeTimeout, idleTimeout      time.Duration
	shutdownTimeout                time.Duration
	logRequests                    bool
	maxStreamsPerClient            int
	streamBodyTimeout              time.Duration
}

// suitePaths is a repeatable SUITE=PATH flag.
type suitePaths map[oblivex.Suite]string

func (p suitePaths) String() string { return fmt.Sprint(map[oblivex.Suite]string(p)) }

func (p suitePaths) Set(value string) error {
	name, path, ok := strings.Cut(value, "=")
	if !ok || path == "" {
		return errors.New("want SUITE=PATH")
	}
	suite, err := keyservice.SuiteByName(name)
	if err != nil {
		return err
	}
	if _, dup := p[suite]; dup {
		return fmt.Errorf("suite %v given twice", suite)
	}
	p[suite] = path
	return nil
}

func parseFlags(args []string) (*config, error) {
	c := &config{keys: suitePaths{}, shares: suitePaths{}, commitments: suitePaths{}}
	fs := flag.NewFlagSet("oblivex-keyserver", flag.ContinueOnError)
	fs.StringVar(&c.listen, "listen", "127.0.0.1:8443", "address to listen on")
	fs.StringVar(&c.tlsCert, "tls-cert", "", "the server's TLS certificate chain (PEM)")
	fs.StringVar(&c.tlsKey, "tls-key", "", "the server's TLS private key (PEM; mode 600)")
	fs.StringVar(&c.clientCA, "client-ca", "", "CA certificates (PEM) that sign client certificates: mutual TLS")
	fs.StringVar(&c.tokens, "tokens", "", "bearer tokens, one \"NAME TOKEN\" a line (mode 600)")
	fs.BoolVar(&c.plaintext, "plaintext", false, "serve HTTP/1.1 without TLS (loopback addresses only; needs -tokens)")
	fs.Var(c.keys, "key", "SUITE=FILE: a secret key (the scalar's encoding; mode 600), served for OPRF, VOPRF and POPRF")
	fs.Var(c.shares, "share", "SUITE=FILE: a key share (party id, scalar; mode 600), served for the threshold protocols")
	fs.Var(c.commitments, "commitments", "SUITE=FILE: the commitments of the -share of SUITE")
	fs.StringVar(&c.blsKeySet, "bls-keyset", "", "the BLS key set of the -share of BLS12381G1-SHA256 (a blind BLS signer)")
	fs.IntVar(&c.maxElements, "max-elements", 4096, "most elements in one request (the body limit follows)")
	fs.Int64Var(&c.quota, "quota", 1_000_000, "elements each client may have evaluated per window")
	fs.DurationVar(&c.quotaWindow, "quota-window", time.Minute, "the quota's window")
	fs.StringVar(&c.quotaState, "quota-state", "", "directory of the quota journal: spent quota survives restarts and crashes (empty: in memory only)")
	fs.Int64Var(&c.maxRefusalsPerClient, "max-refusals-per-client", 16, "requests of one client the server may refuse per quota window (a bad body or element); past it the client's requests are refused before evaluation until the window ends")
	fs.DurationVar(&c.coalesceDelay, "coalesce-delay", time.Millisecond, "longest wait of a small OPRF request for others to batch with (0: no coalescing)")
	fs.IntVar(&c.coalesceBelow, "coalesce-below", 8, "OPRF requests of fewer elements are coalesced")
	fs.IntVar(&c.coalesceMax, "coalesce-max", 1024, "most elements in one coalesced batch")
	fs.DurationVar(&c.readHeaderTimeout, "read-header-timeout", 5*time.Second, "time to read a request's headers")
	fs.DurationVar(&c.readTimeout, "read-timeout", 30*time.Second, "time to read a whole request")
	fs.DurationVar(&c.writeTimeout, "write-timeout", 30*time.Second, "time from a request's headers to the end of its answer")
	fs.DurationVar(&c.idleTimeout, "idle-timeout", 2*time.Minute, "time a keep-alive connection may idle")
	fs.IntVar(&c.maxStreamsPerClient, "max-streams-per-client", 8, "streaming connections one client may hold open at once")
	fs.DurationVar(&c.streamBodyTimeout, "stream-body-timeout", 10*time.Second, "time from a streamed request's header to the end of its body")
	fs.DurationVar(&c.shutdownTimeout, "shutdown-timeout", 30*time.Second, "longest wait for requests in flight at shutdown")
	fs.BoolVar(&c.logRequests, "log-requests", false, "log a line per evaluate call (client, suite, protocol, status, elements)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	return c, c.check()
}

// check refuses configurations that would serve insecurely or not at all.
func (c *config) check() error {
	switch {
	case len(c.keys)+len(c.shares) == 0:
		return errors.New("no -key or -share")
	case c.tokens == "" && c.clientCA == "":
		return errors.New("no client authentication: give -client-ca, -tokens or both")
	case c.maxElements < 1 || c.maxElements > 65535:
		return errors.New("-max-elements must be 1..65535")
	case c.quota < int64(c.maxElements):
		return errors.New("-quota must be at least -max-elements (or a full request could never pass)")
	case c.quotaWindow <= 0:
		return errors.New("-quota-window must be positive")
	case c.maxRefusalsPerClient < 1:
		return errors.New("-max-refusals-per-client must be at least 1")
	case c.maxStreamsPerClient < 1:
		return errors.New("-max-streams-per-client must be at least 1")
	case c.streamBodyTimeout <= 0:
		return errors.New("-stream-body-timeout must be positive")
	case c.coalesceDelay < 0 || c.coalesceBelow < 1 || c.coalesceMax < c.coalesceBelow || c.coalesceMax > 65535:
		return errors.New("-coalesce-delay >= 0 and 1 <= -coalesce-below <= -coalesce-max <= 65535")
	}
	for suite := range c.keys {
		if _, dup := c.shares[suite]; dup {
			return fmt.Errorf("suite %v has both a -key and a -share: one key per suite", suite)
		}
	}
	for suite := range c.shares {
		_, hasCommitments := c.commitments[suite]
		bls := suite == oblivex.SuiteBLS12381G1 && c.blsKeySet != ""
		if hasCommitments == bls {
			return fmt.Errorf("the -share of %v needs its -commitments (or, for a blind BLS signer, -bls-keyset), one of them", suite)
		}
	}
	if c.plaintext {
		if c.tokens == "" || c.clientCA != "" || c.tlsCert != "" {
			return errors.New("-plaintext takes -tokens, and no -client-ca or -tls-cert")
		}
		return checkLoopback(c.listen)
	}
	if c.tlsCert == "" || c.tlsKey == "" {
		return errors.New("-tls-cert and -tls-key are needed (or -plaintext on loopback)")
	}
	return nil
}

// checkLoopback refuses a plaintext listener on anything but loopback.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); host == "localhost" || (ip != nil && ip.IsLoopback()) {
		return nil
	}
	return fmt.Errorf("-plaintext listens on loopback only, not %q", host)
}

// loadKeys reads every key and share (closing those read if one fails).
func loadKeys(c *config) (map[oblivex.Suite]*suiteKeys, error) {
	keys := map[oblivex.Suite]*suiteKeys{}
	fail := func(err error) (map[oblivex.Suite]*suiteKeys, error) {
		closeKeys(keys)
		return nil, err
	}
	for suite, path := range c.keys {
		k, err := loadKey(suite, path)
		if err != nil {
			return fail(err)
		}
		keys[suite] = k
	}
	for suite, path := range c.shares {
		publicPath, bls := c.commitments[suite], false
		if publicPath == "" {
			publicPath, bls = c.blsKeySet, true
		}
		k, err := loadShare(suite, path, publicPath, bls)
		if err != nil {
			return fail(err)
		}
		keys[suite] = k
	}
	return keys, nil
}

func closeKeys(keys map[oblivex.Suite]*suiteKeys) {
	for _, k := range keys {
		k.close()
	}
}

// tlsConfig is the server's TLS: its certificate, and the client CA for
// mutual TLS (required when there are no tokens, optional beside them).
func tlsConfig(c *config) (*tls.Config, error) {
	certPEM, err := os.ReadFile(c.tlsCert)
	if err != nil {
		return nil, err
	}
	keyPEM, err := readSecretFile(c.tlsKey)
	if err != nil {
		return nil, err
	}
	defer wipe(keyPEM)
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, fmt.Errorf("%s, %s: %w", c.tlsCert, c.tlsKey, err)
	}
	t := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	if c.clientCA != "" {
		caPEM, err := os.ReadFile(c.clientCA)
		if err != nil {
			return nil, err
		}
		t.ClientCAs = x509.NewCertPool()
		if !t.ClientCAs.AppendCertsFromPEM(caPEM) {
			return nil, fmt.Errorf("%s: no certificate", c.clientCA)
		}
		t.ClientAuth = tls.RequireAndVerifyClientCert
		if c.tokens != "" {
			t.ClientAuth = tls.VerifyClientCertIfGiven
		}
	}
	return t, nil
}

func main() {
	log.SetFlags(log.LstdFlags | log.LUTC)
	c, err := parseFlags(os.Args[1:])
	if err == flag.ErrHelp {
		return
	}
	if err != nil {
		log.Fatalf("oblivex-keyserver: %v", err)
	}
	if err := serve(c); err != nil {
		log.Fatalf("oblivex-keyserver: %v", err)
	}
}

// serve runs the server until SIGTERM or SIGINT, then drains it.
func serve(c *config) error {
	keys, err := loadKeys(c)
	if err != nil {
		return err
	}
	defer closeKeys(keys)
	s := &service{
		keys:          keys,
		coalescers:    map[oblivex.Suite]*coalescer{},
		coalesceBelow: c.coalesceBelow,
		maxElements:   c.maxElements,
		auth:          &authenticator{},
		quota:         newQuota(c.quota, c.maxRefusalsPerClient, c.quotaWindow, time.Now),
		metrics:       newMetrics(),
		logRequests:   c.logRequests,
		streams:       newStreamSet(c.maxStreamsPerClient),
		evaluations:   newRequestGate(),
		idleTimeout:   c.idleTimeout,
		writeTimeout:  c.writeTimeout,
		bodyTimeout:   c.streamBodyTimeout,
	}
	if c.tokens != "" {
		if s.auth.tokens, err = loadTokens(c.tokens); err != nil {
			return err
		}
	}
	if c.quotaState != "" {
		j, state, err := openJournal(c.quotaState, c.quotaWindow, time.Now())
		if err != nil {
			return fmt.Errorf("-quota-state: %w", err)
		}
		defer j.close()
		s.quota.restore(j, state)
		s.metrics.all.Set("quota_syncs", expvar.Func(func() any { return j.syncs.Load() }))
	}
	if c.coalesceDelay > 0 {
		for suite, k := range keys {
			if k.oprf != nil {
				s.coalescers[suite] = newCoalescer(k.oprf, c.coalesceDelay, c.coalesceMax, runtime.GOMAXPROCS(0), s.metrics)
			}
		}
	}
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: c.readHeaderTimeout,
		ReadTimeout:       c.readTimeout,
		WriteTimeout:      c.writeTimeout,
		IdleTimeout:       c.idleTimeout,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          log.New(os.Stderr, "http: ", log.LstdFlags|log.LUTC),
	}
	if !c.plaintext {
		if srv.TLSConfig, err = tlsConfig(c); err != nil {
			return err
		}
	}
	listener, err := net.Listen("tcp", c.listen)
	if err != nil {
		return err
	}
	served := make(chan error, 1)
	go func() {
		if c.plaintext {
			served <- srv.Serve(listener)
		} else {
			served <- srv.ServeTLS(listener, "", "")
		}
	}()
	log.Printf("listening on %s (%s), suites %v", listener.Addr(), scheme(c), suitesOf(keys))
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	select {
	case err := <-served:
		return err
	case sig := <-signals:
		log.Printf("%v: draining", sig)
	}
	s.draining.Store(true)
	s.streams.stopReading()
	ctx, cancel := context.WithTimeout(context.Background(), c.shutdownTimeout)
	defer cancel()
	if err := s.evaluations.closeAndWait(ctx); err != nil {
		return fmt.Errorf("shutdown: evaluations: %w", err)
	}
	if err := srv.Shutdown(ctx); err != nil {
		return fmt.Errorf("shutdown: %w", err) // requests still running: exit without waiting for them
	}
	if err := s.streams.wait(ctx); err != nil {
		return fmt.Errorf("shutdown: streams: %w", err)
	}
	for _, co := range s.coalescers {
		co.close()
	}
	log.Printf("stopped; requests %s, elements %s", s.metrics.requests.String(), s.metrics.elements.String())
	return nil
}

func scheme(c *config) string {
	if c.plaintext {
		return "plaintext HTTP/1.1, loopback"
	}
	return "TLS, HTTP/1.1 and HTTP/2"
}

func suitesOf(keys map[oblivex.Suite]*suiteKeys) []string {
	var names []string
	for suite, k := range keys {
		kind := "key"
		if k.share != nil {
			kind = fmt.Sprintf("share %d", k.share.ID())
		}
		names = append(names, fmt.Sprintf("%v (%s)", suite, kind))
	}
	return names
}
