package keyservice

// The streaming endpoint: one connection carries many plain-OPRF
// requests, each framed, answered in order (docs/DEPLOYMENT.md). A
// client asks for it with an HTTP/1.1 upgrade (GET StreamPath(suite),
// "Connection: Upgrade", "Upgrade: StreamUpgrade", authenticated as any
// evaluate call); after the server's 101 the connection carries frames:
//
//	request:  length (4 bytes, big endian), then the library's wire request
//	response: status (2 bytes), retry-after seconds (2), length (4), body
//
// A response's status is an HTTP status: 200 with the evaluated elements,
// or a refusal with its reason as text (429 with the seconds to wait). A
// request that is too large (413) ends the stream after its answer, and
// so does 503: the server is draining; it answers every request it read
// before that one. Requests sent back to back share the server's reads
// and writes, and coalesce with every other client's.

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	oblivex "github.com/oblivex/oblivex/bindings/go"
)

const (
	// StreamEndpoint is the last segment of the streaming endpoint's path.
	StreamEndpoint = "stream-oprf"
	// StreamUpgrade is the protocol named in the Upgrade header.
	StreamUpgrade = "oblivex-stream/1"
	// RequestHeaderLen is the size of a request frame's header.
	RequestHeaderLen = 4
	// ResponseHeaderLen is the size of a response frame's header.
	ResponseHeaderLen = 8
	// maxReason bounds a refusal's text in a response frame.
	maxReason = 512
)

// WriteRequestFrame writes one request frame.
func WriteRequestFrame(w io.Writer, request []byte) error {
	var header [RequestHeaderLen]byte
	binary.BigEndian.PutUint32(header[:], uint32(len(request)))
	if _, err := w.Write(header[:]); err != nil {
		return err
	}
	_, err := w.Write(request)
	return err
}

// WriteResponseFrame writes one response frame: status, the seconds to
// wait (429; rounded up, and clamped to the field's 65,535 seconds, about
// 18 hours, rather than wrapping to a short wait), and the body (the
// answer, or a refusal's reason).
func WriteResponseFrame(w io.Writer, status int, retryAfter time.Duration, body []byte) error {
	var header [ResponseHeaderLen]byte
	binary.BigEndian.PutUint16(header[0:], uint16(status))
	binary.BigEndian.PutUint16(header[2:], retryAfterSeconds(retryAfter))
	binary.BigEndian.PutUint32(header[4:], uint32(len(body)))
	if _, err := w.Write(header[:]); err != nil {
		return err
	}
	_, err := w.Write(body)
	return err
}

// retryAfterSeconds is a wait as a response frame's field: whole seconds,
// rounded up, in [0, 65535].
func retryAfterSeconds(wait time.Duration) uint16 {
	seconds := (wait + time.Second - 1) / time.Second
	switch {
	case seconds < 0:
		return 0
	case seconds > math.MaxUint16:
		return math.MaxUint16
	}
	return uint16(seconds)
}

// Stream is a client's streaming connection to one server for one suite:
// Send queues requests, Flush sends them, Receive returns the answers in
// order. Not for concurrent use.
type Stream struct {
	suite oblivex.Suite
	conn  net.Conn
	r     *bufio.Reader
	w     *bufio.Writer
	sent  []int // lengths of the requests not answered yet, in order
}

// OpenStream upgrades a connection to the server's streaming endpoint of
// suite: TLS (HTTP/1.1) with the TLS configuration of c.HTTP's transport
// for an https Base, plain TCP for http. A refusal is a *StatusError.
func (c *Client) OpenStream(ctx context.Context, suite oblivex.Suite) (*Stream, error) {
	base, err := url.Parse(c.Base)
	if err != nil {
		return nil, err
	}
	conn, err := c.dial(ctx, base)
	if err != nil {
		return nil, err
	}
	s, err := c.upgrade(ctx, conn, base, suite)
	if err != nil {
		conn.Close()
		return nil, err
	}
	return s, nil
}

// dial connects to base's host: TLS for https (HTTP/1.1 only: an upgrade
// is an HTTP/1.1 mechanism), TCP for http.
func (c *Client) dial(ctx context.Context, base *url.URL) (net.Conn, error) {
	switch base.Scheme {
	case "http":
		return (&net.Dialer{}).DialContext(ctx, "tcp", base.Host)
	case "https":
		config := &tls.Config{MinVersion: tls.VersionTLS12}
		if c.HTTP != nil {
			if t, ok := c.HTTP.Transport.(*http.Transport); ok && t.TLSClientConfig != nil {
				config = t.TLSClientConfig.Clone()
			}
		}
		config.NextProtos = []string{"http/1.1"}
		return (&tls.Dialer{Config: config}).DialContext(ctx, "tcp", base.Host)
	}
	return nil, fmt.Errorf("keyservice: scheme %q (want http or https)", base.Scheme)
}

// upgrade asks for the streaming endpoint on conn and reads the answer.
func (c *Client) upgrade(ctx context.Context, conn net.Conn, base *url.URL, suite oblivex.Suite) (*Stream, error) {
	if deadline, ok := ctx.Deadline(); ok {
		conn.SetDeadline(deadline)
		defer conn.SetDeadline(time.Time{})
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet,
		strings.TrimRight(base.String(), "/")+StreamPath(suite), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Connection", "Upgrade")
	req.Header.Set("Upgrade", StreamUpgrade)
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	if err := req.Write(conn); err != nil {
		return nil, err
	}
	r := bufio.NewReader(conn)
	resp, err := http.ReadResponse(r, req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		defer resp.Body.Close()
		return nil, refusalOf(resp)
	}
	return &Stream{suite: suite, conn: conn, r: r, w: bufio.NewWriter(conn)}, nil
}

// StreamPath is the path of suite's streaming endpoint.
func StreamPath(suite oblivex.Suite) string { return KeyPath(suite, StreamEndpoint) }

// Send queues one request (the library's wire request of plain-OPRF
// blinded elements); Flush sends what is queued.
func (s *Stream) Send(request []byte) error {
	if err := WriteRequestFrame(s.w, request); err != nil {
		return err
	}
	s.sent = append(s.sent, len(request))
	return nil
}

// Flush sends the queued requests.
func (s *Stream) Flush() error { return s.w.Flush() }

// ErrStreamIdle is Receive with no request waiting for its answer.
var ErrStreamIdle = errors.New("keyservice: no request waiting for an answer on this stream")

// Receive returns the answer to the oldest request not yet answered: the
// evaluated elements, or the server's refusal as a *StatusError (after a
// 413 or a 503 the stream is closed: requests sent after that one were not
// evaluated, and get io.EOF or a connection error).
func (s *Stream) Receive() ([]byte, error) {
	if len(s.sent) == 0 {
		return nil, ErrStreamIdle
	}
	want := s.sent[0]
	s.sent = s.sent[1:]
	var header [ResponseHeaderLen]byte
	if _, err := io.ReadFull(s.r, header[:]); err != nil {
		return nil, err
	}
	status := int(binary.BigEndian.Uint16(header[0:]))
	retryAfter := time.Duration(binary.BigEndian.Uint16(header[2:])) * time.Second
	length := int(binary.BigEndian.Uint32(header[4:]))
	if (status == http.StatusOK && length != want) || (status != http.StatusOK && length > maxReason) {
		return nil, ErrShortAnswer
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(s.r, body); err != nil {
		return nil, err
	}
	if status != http.StatusOK {
		return nil, &StatusError{Code: status, RetryAfter: retryAfter, Message: string(body)}
	}
	return body, nil
}

// Evaluate sends one request and returns its answer (no other request
// waiting on the stream).
func (s *Stream) Evaluate(request []byte) ([]byte, error) {
	if err := s.Send(request); err != nil {
		return nil, err
	}
	if err := s.Flush(); err != nil {
		return nil, err
	}
	return s.Receive()
}

// SetDeadline bounds the stream's reads and writes (zero: no bound).
func (s *Stream) SetDeadline(t time.Time) error { return s.conn.SetDeadline(t) }

// Close closes the connection.
func (s *Stream) Close() error { return s.conn.Close() }
