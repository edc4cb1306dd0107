package keyservice

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"
)

// TransportConfig is how a client reaches servers: the CA that signs the
// servers' certificates (none: the system's), its own certificate for
// mutual TLS (none: bearer tokens), and how many connections it keeps per
// server.
type TransportConfig struct {
	// CAFile holds the CA certificates (PEM) to verify servers with.
	CAFile string
	// CertFile and KeyFile are the client's certificate and key (PEM).
	CertFile, KeyFile string
	// Conns is the most idle connections kept per server.
	Conns int
}

// NewHTTPClient makes the HTTP client of a TransportConfig: TLS 1.2 or
// later, HTTP/2 when the server offers it, plain HTTP for http:// URLs.
func NewHTTPClient(c TransportConfig) (*http.Client, error) {
	t := &tls.Config{MinVersion: tls.VersionTLS12}
	if c.CAFile != "" {
		pem, err := os.ReadFile(c.CAFile)
		if err != nil {
			return nil, err
		}
		t.RootCAs = x509.NewCertPool()
		if !t.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("%s: no certificate", c.CAFile)
		}
	}
	if c.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(c.CertFile, c.KeyFile)
		if err != nil {
			return nil, err
		}
		t.Certificates = []tls.Certificate{cert}
	}
	conns := c.Conns
	if conns < 2 {
		conns = 2
	}
	transport := &http.Transport{
		TLSClientConfig:     t,
		ForceAttemptHTTP2:   true,
		MaxIdleConns:        4 * conns,
		MaxIdleConnsPerHost: conns,
		IdleConnTimeout:     time.Minute,
		TLSHandshakeTimeout: 10 * time.Second,
	}
	return &http.Client{Transport: transport}, nil
}

// ReadToken reads a bearer token from a file (its first line), so that it
// is never on a command line.
func ReadToken(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	token := strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0])
	if token == "" {
		return "", fmt.Errorf("%s: no token", path)
	}
	return token, nil
}
