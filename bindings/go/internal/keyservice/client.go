package keyservice

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	oblivex "github.com/oblivex/oblivex/bindings/go"
)

// Client calls one keyserver: its base URL ("https://host:port"), the
// HTTP client (with the TLS configuration: CA, client certificate) and,
// when the server takes bearer tokens, the token.
type Client struct {
	// Base is the server's URL without a path.
	Base string
	// HTTP makes the calls (http.DefaultClient if nil).
	HTTP *http.Client
	// Token is sent as "Authorization: Bearer Token" when not empty.
	Token string
}

// StatusError is a server's refusal: its HTTP status, its Retry-After
// (quota, 429) and the first line of its body.
type StatusError struct {
	// Code is the HTTP status.
	Code int
	// RetryAfter is the wait the server asked for (0 if none).
	RetryAfter time.Duration
	// Message is what the server said.
	Message string
}

// Error names the status and the server's message.
func (e *StatusError) Error() string {
	return fmt.Sprintf("server answered %d %s: %s", e.Code, http.StatusText(e.Code), e.Message)
}

// ErrShortAnswer is an answer of another length than the request's: the
// transfer was cut, or the server is broken.
var ErrShortAnswer = errors.New("keyservice: the answer's length does not match the request")

// ErrAnswerTooLong is an answer longer than any the call can have. It is
// refused without reading past that length: a malicious server (the case
// a threshold client's check exists for) cannot make the client hold more
// than the answer it expects.
var ErrAnswerTooLong = errors.New("keyservice: the answer is longer than the call allows")

// maxErrorBody bounds what is read of a refusal's body.
const maxErrorBody = 512

// maxCommitmentsLen bounds the commitments endpoint's answer for suite:
// t ≤ MaxParties element encodings, or a blind BLS signer's key set (a
// 4-byte header, m + 1 public keys and t signatures).
func maxCommitmentsLen(suite oblivex.Suite) int {
	commitments := oblivex.MaxParties * suite.ElementLen()
	keySet := 4 + (oblivex.MaxParties+1)*oblivex.BLSPublicKeyLen + oblivex.MaxParties*oblivex.BLSSignatureLen
	if keySet > commitments {
		return keySet
	}
	return commitments
}

// Evaluate sends request (the library's wire request) to the evaluate
// endpoint of suite and protocol (with a POPRF info or a threshold quorum,
// nil when the protocol has none) and returns the answer's body: the
// evaluated elements, then for VOPRF and POPRF the proof. A refusal is a
// *StatusError.
func (c *Client) Evaluate(ctx context.Context, suite oblivex.Suite, protocol Protocol, request, info []byte,
	quorum []uint16) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, evaluateURL(c.Base, suite, protocol, quorum),
		bytes.NewReader(request))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", ContentType)
	if info != nil {
		req.Header.Set(InfoHeader, fmt.Sprintf("%x", info))
	}
	want := len(request)
	if protocol == VOPRF || protocol == POPRF {
		want += suite.ProofLen()
	}
	body, err := c.do(req, want)
	if err != nil {
		return nil, err
	}
	if len(body) != want {
		return nil, ErrShortAnswer
	}
	return body, nil
}

// PublicKey fetches and validates the server's public key of suite.
func (c *Client) PublicKey(ctx context.Context, suite oblivex.Suite) (*oblivex.PublicKey, error) {
	body, err := c.get(ctx, KeyPath(suite, PublicKeyEndpoint), suite.ElementLen())
	if err != nil {
		return nil, err
	}
	return oblivex.ParsePublicKey(suite, body)
}

// Commitments fetches the server's commitments of suite (or, for a blind
// BLS signer, its key set), to be parsed by the caller. Fetched from a
// server, they are only as authentic as the connection: a deployment
// distributes them out of band (docs/DEPLOYMENT.md).
func (c *Client) Commitments(ctx context.Context, suite oblivex.Suite) ([]byte, error) {
	return c.get(ctx, KeyPath(suite, CommitmentsEndpoint), maxCommitmentsLen(suite))
}

// get fetches path, an answer of at most limit bytes (see do).
func (c *Client) get(ctx context.Context, path string, limit int) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.Base+path, nil)
	if err != nil {
		return nil, err
	}
	return c.do(req, limit)
}

// do sends req with the token and returns a 200's body of at most limit
// bytes (ErrAnswerTooLong past that, read no further), or a *StatusError.
func (c *Client) do(req *http.Request, limit int) ([]byte, error) {
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	httpClient := c.HTTP
	if httpClient == nil {
		httpClient = http.DefaultClient
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, refusalOf(resp)
	}
	if resp.ContentLength > int64(limit) {
		return nil, ErrAnswerTooLong
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(limit)+1))
	if err != nil {
		return nil, err
	}
	if len(body) > limit {
		return nil, ErrAnswerTooLong
	}
	return body, nil
}

// refusalOf is the *StatusError of a response that is not a success.
func refusalOf(resp *http.Response) *StatusError {
	message, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	refusal := &StatusError{Code: resp.StatusCode, Message: string(bytes.TrimSpace(message))}
	if seconds, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && seconds > 0 {
		refusal.RetryAfter = time.Duration(seconds) * time.Second
	}
	return refusal
}
