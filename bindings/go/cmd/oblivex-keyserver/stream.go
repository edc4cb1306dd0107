package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/oblivex/oblivex/bindings/go/internal/keyservice"
)

// The streaming endpoint (keyservice's stream.go has the framing): an
// authenticated HTTP/1.1 upgrade, then plain-OPRF requests framed on the
// connection, each counted against the quota, coalesced like a small
// request of the plain endpoint, and answered in order.

// streamProtocol names the streaming endpoint in the counters.
const streamProtocol = "stream-oprf"

// framesPerRound bounds the requests a stream reads before answering.
const framesPerRound = 64

// streamSet tracks the upgraded connections, which http.Server.Shutdown
// does not: draining stops their reading and waits for their answers. It
// also holds each client to maxPerClient streams at once: a stream holds
// a connection and a goroutine before it reads any request, so before
// any quota is taken.
type streamSet struct {
	mu           sync.Mutex
	conns        map[net.Conn]string // the connection's client
	perClient    map[string]int
	maxPerClient int
	draining     bool
	active       sync.WaitGroup
}

func newStreamSet(maxPerClient int) *streamSet {
	return &streamSet{conns: map[net.Conn]string{}, perClient: map[string]int{}, maxPerClient: maxPerClient}
}

// add registers client's conn and returns 0, or the status that refuses
// it: 503 when the server is draining, 429 when the client holds its
// most streams already.
func (st *streamSet) add(conn net.Conn, client string) int {
	st.mu.Lock()
	defer st.mu.Unlock()
	switch {
	case st.draining:
		return http.StatusServiceUnavailable
	case st.perClient[client] >= st.maxPerClient:
		return http.StatusTooManyRequests
	}
	st.conns[conn] = client
	st.perClient[client]++
	st.active.Add(1)
	return 0
}

func (st *streamSet) remove(conn net.Conn) {
	st.mu.Lock()
	client := st.conns[conn]
	delete(st.conns, conn)
	if st.perClient[client]--; st.perClient[client] == 0 {
		delete(st.perClient, client)
	}
	st.mu.Unlock()
	st.active.Done()
}

// armRead bounds conn's next read by idle, or ends it at once when the
// server is draining (under the lock: a drain cannot be overwritten).
func (st *streamSet) armRead(conn net.Conn, idle time.Duration) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.draining {
		conn.SetReadDeadline(time.Now())
		return
	}
	conn.SetReadDeadline(time.Now().Add(idle))
}

// isDraining reports whether stopReading was called.
func (st *streamSet) isDraining() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.draining
}

// stopReading refuses new streams and ends every stream's read: each
// answers the requests it read in full, says 503, and closes.
func (st *streamSet) stopReading() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.draining = true
	for conn := range st.conns {
		conn.SetReadDeadline(time.Now())
	}
}

// wait returns when every stream has closed, or with ctx's error.
func (st *streamSet) wait(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		st.active.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// stream answers the streaming endpoint: authenticate, check the upgrade,
// take the connection, then serve frames until the client closes it,
// idles past the idle timeout, sends a frame too large, or the server
// drains.
func (s *service) stream(w http.ResponseWriter, r *http.Request, keys *suiteKeys) {
	client, err := s.auth.client(r)
	switch {
	case err != nil:
		s.refuse(w, http.StatusUnauthorized, err.Error())
		return
	case r.Method != http.MethodGet:
		s.refuse(w, http.StatusMethodNotAllowed, "GET with an upgrade only")
		return
	case keys.oprf == nil:
		s.refuse(w, http.StatusNotFound, fmt.Sprintf("no oprf key of suite %v here", keys.suite))
		return
	case r.ProtoMajor != 1 || !headerHas(r.Header, "Connection", "upgrade") ||
		!strings.EqualFold(r.Header.Get("Upgrade"), keyservice.StreamUpgrade):
		w.Header().Set("Upgrade", keyservice.StreamUpgrade)
		s.refuse(w, http.StatusUpgradeRequired, "an HTTP/1.1 upgrade to "+keyservice.StreamUpgrade)
		return
	}
	hijacker, ok := w.(http.Hijacker)
	if !ok {
		s.refuse(w, http.StatusUpgradeRequired, "this connection cannot be upgraded")
		return
	}
	conn, rw, err := hijacker.Hijack()
	if err != nil {
		return
	}
	defer conn.Close()
	if status := s.streams.add(conn, client); status != 0 {
		s.metrics.refused(status)
		reason := "shutting down"
		if status == http.StatusTooManyRequests {
			reason = fmt.Sprintf("at most %d streams per client", s.streams.maxPerClient)
		}
		fmt.Fprintf(conn, "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
			status, http.StatusText(status), len(reason), reason)
		return
	}
	defer s.streams.remove(conn)
	conn.SetDeadline(time.Time{}) // the server's own timeouts are per request: the stream sets its own
	conn.SetWriteDeadline(time.Now().Add(s.writeTimeout))
	io.WriteString(rw, "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: "+keyservice.StreamUpgrade+"\r\n\r\n")
	if rw.Flush() != nil {
		return
	}
	s.metrics.requests.Add("streams", 1)
	frames, elements := s.serveFrames(conn, rw, client, keys)
	closeGently(conn)
	s.logf("%q %s %s: closed after %d requests, %d elements", client, keys.suite, streamProtocol, frames, elements)
}

// closeGently ends a stream without destroying its last answers: closing
// with the client's unread requests in the socket would send a reset,
// which may discard answers the client has not read yet. So the write
// side closes first, then what the client still sends is read and
// dropped, for a second at most.
func closeGently(conn net.Conn) {
	if c, ok := conn.(interface{ CloseWrite() error }); ok {
		c.CloseWrite()
	}
	conn.SetReadDeadline(time.Now().Add(time.Second))
	io.Copy(io.Discard, conn)
}

// headerHas reports whether a comma-separated header holds token.
func headerHas(h http.Header, name, token string) bool {
	for _, value := range h.Values(name) {
		for _, part := range strings.Split(value, ",") {
			if strings.EqualFold(strings.TrimSpace(part), token) {
				return true
			}
		}
	}
	return false
}

// frame is one request read from a stream, on its way to its answer.
type frame struct {
	start    time.Time
	elements int
	ticket   ticket
	refused  *refusal
	job      *job   // evaluating in the coalescer
	answer   []byte // evaluated already
}

// serveFrames reads the requests a round at a time (one, then every
// other already received in full), starts them all (the small ones into
// the coalescer together), answers them in order and flushes. It returns
// the requests answered and the elements evaluated.
func (s *service) serveFrames(conn net.Conn, rw *bufio.ReadWriter, client string, keys *suiteKeys) (int, int) {
	var answered, evaluated int
	for {
		s.streams.armRead(conn, s.idleTimeout)
		bodies, last := s.readRound(conn, rw.Reader, keys)
		frames := make([]*frame, len(bodies))
		for i, body := range bodies {
			frames[i] = s.startFrame(client, keys, body)
		}
		conn.SetWriteDeadline(time.Now().Add(s.writeTimeout))
		for _, f := range frames {
			evaluated += s.finishFrame(rw.Writer, client, keys, f)
		}
		answered += len(frames)
		if last == nil && rw.Flush() == nil {
			continue
		}
		if last != nil && last.status != 0 {
			s.chargeRefusal(client, last)
			s.metrics.refused(last.status)
			keyservice.WriteResponseFrame(rw.Writer, last.status, 0, []byte(last.reason))
		}
		rw.Flush()
		return answered, evaluated
	}
}

// readRound reads one request (waiting for it), then the ones already
// buffered in full, up to framesPerRound. last is set when the stream
// ends after these: a zero status for the client's close, an idle
// timeout or a body that does not arrive within the body timeout
// (nothing to say), 413 for a request too large, 503 when the server
// drains. A request read in part when the stream ends is dropped,
// unevaluated and uncounted.
func (s *service) readRound(conn net.Conn, r *bufio.Reader, keys *suiteKeys) ([][]byte, *refusal) {
	limit := s.maxElements * keys.suite.ElementLen()
	var bodies [][]byte
	for len(bodies) < framesPerRound {
		if len(bodies) > 0 {
			if r.Buffered() < keyservice.RequestHeaderLen {
				return bodies, nil
			}
			header, _ := r.Peek(keyservice.RequestHeaderLen)
			if n := int(binary.BigEndian.Uint32(header)); n <= limit && r.Buffered() < keyservice.RequestHeaderLen+n {
				return bodies, nil
			}
		}
		var header [keyservice.RequestHeaderLen]byte
		if _, err := io.ReadFull(r, header[:]); err != nil {
			return bodies, s.streamEnd(err)
		}
		n := binary.BigEndian.Uint32(header[:])
		if uint64(n) > uint64(limit) {
			return bodies, &refusal{status: http.StatusRequestEntityTooLarge, reason: fmt.Sprintf("more than %d elements", s.maxElements)}
		}
		body, err := s.readFrameBody(conn, r, int(n))
		if err != nil {
			return bodies, s.streamEnd(err)
		}
		bodies = append(bodies, body)
	}
	return bodies, nil
}

// readFrameBody reads a streamed request's body of n bytes. One buffered in
// full is read into a buffer of its size. Otherwise the body timeout
// bounds the wait, and the buffer grows with what arrives: a header alone
// announces a length but reserves no memory for it (a client announcing
// the largest request and sending nothing holds only a small buffer, until
// the body timeout ends its stream).
func (s *service) readFrameBody(conn net.Conn, r *bufio.Reader, n int) ([]byte, error) {
	if r.Buffered() >= n {
		body := make([]byte, n)
		_, err := io.ReadFull(r, body)
		return body, err
	}
	s.streams.armRead(conn, s.bodyTimeout)
	var body bytes.Buffer
	if _, err := io.CopyN(&body, r, int64(n)); err != nil {
		return nil, err
	}
	return body.Bytes(), nil
}

// streamEnd is why a stream's read failed: the server drains (503), or
// the client closed or idled (nothing to answer).
func (s *service) streamEnd(error) *refusal {
	if s.streams.isDraining() {
		return &refusal{status: http.StatusServiceUnavailable, reason: "shutting down"}
	}
	return &refusal{}
}

// startFrame checks a request, takes its elements from the quota and
// starts its evaluation: into the coalescer when small, else at once.
func (s *service) startFrame(client string, keys *suiteKeys, body []byte) *frame {
	f := &frame{start: time.Now()}
	if f.refused = s.admitClient(client); f.refused != nil {
		return f
	}
	elementLen := keys.suite.ElementLen()
	if len(body) == 0 || len(body)%elementLen != 0 {
		f.refused = &refusal{status: http.StatusBadRequest,
			reason: fmt.Sprintf("the request is not a whole, non-zero number of %v elements", keys.suite)}
		return f
	}
	f.elements = len(body) / elementLen
	if f.ticket, f.refused = s.takeQuota(client, f.elements); f.refused != nil {
		return f
	}
	if c := s.coalescerFor(client, keys.suite, f.elements); c != nil {
		f.job = c.submit(body)
		return f
	}
	var err error
	if f.answer, err = keys.oprf.Evaluate(body); err != nil {
		f.refused = s.giveBack(client, f.elements, f.ticket, err)
	}
	return f
}

// finishFrame waits for a request's answer, writes it (or its refusal)
// and counts it; it returns the elements evaluated.
func (s *service) finishFrame(w io.Writer, client string, keys *suiteKeys, f *frame) int {
	if f.job != nil {
		a := <-f.job.answer
		if f.answer = a.evaluated; a.err != nil {
			f.refused = s.giveBack(client, f.elements, f.ticket, a.err)
		}
	}
	if f.refused == nil {
		f.refused = s.beforeAnswer(client, f.elements, f.ticket)
	}
	if f.refused != nil {
		s.chargeRefusal(client, f.refused)
		s.metrics.refused(f.refused.status)
		s.logf("%q %s %s: %d %s", client, keys.suite, streamProtocol, f.refused.status, f.refused.reason)
		keyservice.WriteResponseFrame(w, f.refused.status, f.refused.retryAfter, []byte(f.refused.reason))
		return 0
	}
	s.counted(streamProtocol, f.elements, f.start)
	keyservice.WriteResponseFrame(w, http.StatusOK, 0, f.answer)
	return f.elements
}
