package main

import (
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	oblivex "github.com/oblivex/oblivex/bindings/go"
	"github.com/oblivex/oblivex/bindings/go/internal/keyservice"
)

// service is the HTTP handler: the keys per suite, the limits, the quota,
// the counters.
type service struct {
	keys          map[oblivex.Suite]*suiteKeys
	coalescers    map[oblivex.Suite]*coalescer
	coalesceBelow int // requests of fewer elements go through the coalescer
	maxElements   int
	auth          *authenticator
	quota         *quota
	metrics       *metrics
	draining      atomic.Bool
	evaluations   *requestGate // the evaluate requests in flight, for a drain
	logRequests   bool
	// streams are the connections upgraded to the streaming endpoint;
	// idleTimeout bounds the wait for a request's header, bodyTimeout the
	// wait from a header to the end of its body, writeTimeout a round of
	// answers.
	streams                                *streamSet
	idleTimeout, bodyTimeout, writeTimeout time.Duration
}

// ServeHTTP routes: /healthz, /metrics, /v1/SUITE/{public-key,
// commitments, evaluate-PROTOCOL}.
func (s *service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case keyservice.HealthPath:
		s.health(w)
		return
	case keyservice.MetricsPath:
		if _, err := s.auth.client(r); err != nil {
			s.refuse(w, http.StatusUnauthorized, err.Error())
			return
		}
		s.metrics.serveHTTP(w, r)
		return
	}
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/"), "/")
	if len(parts) != 3 || parts[0] != keyservice.Version {
		s.refuse(w, http.StatusNotFound, "no such endpoint")
		return
	}
	suite, err := keyservice.SuiteByName(parts[1])
	keys := s.keys[suite]
	if err != nil || keys == nil {
		s.refuse(w, http.StatusNotFound, "no key of suite "+parts[1]+" here")
		return
	}
	endpoint := parts[2]
	switch {
	case endpoint == keyservice.PublicKeyEndpoint:
		s.public(w, r, endpoint, keys.publicKey)
	case endpoint == keyservice.CommitmentsEndpoint:
		s.public(w, r, endpoint, keys.commitments)
	case endpoint == keyservice.StreamEndpoint:
		s.stream(w, r, keys)
	case strings.HasPrefix(endpoint, keyservice.EvaluatePrefix):
		s.evaluate(w, r, keys, keyservice.Protocol(strings.TrimPrefix(endpoint, keyservice.EvaluatePrefix)))
	default:
		s.refuse(w, http.StatusNotFound, "no such endpoint")
	}
}

func (s *service) health(w http.ResponseWriter) {
	if s.draining.Load() {
		s.refuse(w, http.StatusServiceUnavailable, "shutting down")
		return
	}
	io.WriteString(w, "ok\n")
}

// public serves a public value (nil: this server has none).
func (s *service) public(w http.ResponseWriter, r *http.Request, endpoint string, value []byte) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		s.refuse(w, http.StatusMethodNotAllowed, "GET only")
		return
	}
	if value == nil {
		s.refuse(w, http.StatusNotFound, "no "+endpoint+" here")
		return
	}
	s.metrics.requests.Add(endpoint, 1)
	writeBody(w, value)
}

// refusal is an evaluate call refused with a status and a reason (and,
// over quota, the time to the window's end).
type refusal struct {
	status     int
	reason     string
	retryAfter time.Duration
}

// evaluate runs an evaluate endpoint: authenticate, read and check the
// body within the limits, take the elements from the client's quota,
// evaluate (coalesced when small and plain), answer; a refused request
// evaluates nothing and gives back its quota.
func (s *service) evaluate(w http.ResponseWriter, r *http.Request, keys *suiteKeys, protocol keyservice.Protocol) {
	start := time.Now()
	if !s.evaluations.enter() {
		s.refuse(w, http.StatusServiceUnavailable, "shutting down")
		return
	}
	defer s.evaluations.leave()
	client, err := s.auth.client(r)
	if err != nil {
		s.refuse(w, http.StatusUnauthorized, err.Error())
		return
	}
	elements, answer, refused := s.admitAndRun(w, r, client, keys, protocol)
	if refused != nil {
		s.chargeRefusal(client, refused)
		s.logf("%q %s %s: %d %s", client, keys.suite, protocol, refused.status, refused.reason)
		if refused.retryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(int((refused.retryAfter+time.Second-1)/time.Second)))
		}
		s.refuse(w, refused.status, refused.reason)
		return
	}
	s.counted(string(protocol), elements, start)
	s.logf("%q %s %s: 200, %d elements in %v", client, keys.suite, protocol, elements, time.Since(start))
	writeBody(w, answer)
}

// counted counts a request answered: its elements, its latency.
func (s *service) counted(protocol string, elements int, start time.Time) {
	s.metrics.requests.Add(protocol, 1)
	s.metrics.elements.Add(protocol, int64(elements))
	s.metrics.observe(time.Since(start))
}

// takeQuota takes elements from the client's quota, or refuses (429, with
// the time to the window's end) and counts the refusal.
func (s *service) takeQuota(client string, elements int) (ticket, *refusal) {
	t, wait, ok := s.quota.take(client, int64(elements))
	if !ok {
		s.metrics.quotaRefusals.Add(1)
		return t, &refusal{status: http.StatusTooManyRequests, reason: "element quota of this window used", retryAfter: wait}
	}
	return t, nil
}

// beforeAnswer makes the take of an evaluated request durable (with
// -quota-state) before its answer goes out: after the evaluation, so that
// the fsync overlaps it and one fsync serves every request answered at
// once (a coalesced batch's, a stream round's). If the take cannot be
// made durable the answer is withheld (503) and the elements given back:
// an answer whose quota a restart could forget is never sent.
func (s *service) beforeAnswer(client string, elements int, t ticket) *refusal {
	if err := s.quota.persist(t); err != nil {
		log.Printf("quota journal: %v", err)
		s.quota.refund(client, int64(elements), t)
		return &refusal{status: http.StatusServiceUnavailable, reason: "quota state unavailable"}
	}
	return nil
}

// admitClient refuses (429, with the time to the window's end) a client
// whose refused requests of this window used its refusal budget: called
// before an HTTP request's body is read, and before a stream frame is
// checked or evaluated.
func (s *service) admitClient(client string) *refusal {
	if wait, ok := s.quota.admit(client); !ok {
		s.metrics.refusalBudgetRefusals.Add(1)
		return &refusal{status: http.StatusTooManyRequests, reason: "refused-request budget of this window used", retryAfter: wait}
	}
	return nil
}

// chargeRefusal counts a refusal of the client's making (a 4xx other than
// 429: a malformed body, an invalid element, a bad argument) against its
// refusal budget.
func (s *service) chargeRefusal(client string, r *refusal) {
	if r.status >= 400 && r.status < 500 && r.status != http.StatusTooManyRequests {
		s.quota.countRefusal(client)
	}
}

// coalescerFor is the coalescer a plain OPRF request of client with this
// many elements joins, or nil: none for requests of coalesceBelow
// elements or more, and none for a client with a request refused in this
// window, so that its invalid elements fail its own requests only, not a
// batch of other clients' (see quota.hasRefusals).
func (s *service) coalescerFor(client string, suite oblivex.Suite, elements int) *coalescer {
	c := s.coalescers[suite]
	if c == nil || elements >= s.coalesceBelow || s.quota.hasRefusals(client) {
		return nil
	}
	return c
}

// giveBack is a request the library refused after its elements were
// taken: they go back to the quota (nothing was evaluated).
func (s *service) giveBack(client string, elements int, t ticket, err error) *refusal {
	s.quota.refund(client, int64(elements), t)
	return libraryRefusal(err)
}

// admitAndRun is evaluate's work once the client is known.
func (s *service) admitAndRun(w http.ResponseWriter, r *http.Request, client string, keys *suiteKeys,
	protocol keyservice.Protocol) (int, []byte, *refusal) {
	if refused := s.admitClient(client); refused != nil {
		return 0, nil, refused
	}
	if r.Method != http.MethodPost {
		return 0, nil, &refusal{status: http.StatusMethodNotAllowed, reason: "POST only"}
	}
	run, refused := s.evaluator(r, client, keys, protocol)
	if refused != nil {
		return 0, nil, refused
	}
	body, refused := s.readBody(w, r, keys.suite)
	if refused != nil {
		return 0, nil, refused
	}
	elements := len(body) / keys.suite.ElementLen()
	t, refused := s.takeQuota(client, elements)
	if refused != nil {
		return 0, nil, refused
	}
	answer, err := run(body)
	if err != nil {
		return 0, nil, s.giveBack(client, elements, t, err)
	}
	if refused := s.beforeAnswer(client, elements, t); refused != nil {
		return 0, nil, refused
	}
	return elements, answer, nil
}

// evaluator picks the key's evaluation for protocol, with its query and
// header arguments, for client's request.
func (s *service) evaluator(r *http.Request, client string, keys *suiteKeys, protocol keyservice.Protocol) (func([]byte) ([]byte, error), *refusal) {
	noKey := &refusal{status: http.StatusNotFound, reason: fmt.Sprintf("no %s key of suite %v here", protocol, keys.suite)}
	switch protocol {
	case keyservice.OPRF:
		if keys.oprf == nil {
			return nil, noKey
		}
		return func(body []byte) ([]byte, error) {
			if c := s.coalescerFor(client, keys.suite, len(body)/keys.suite.ElementLen()); c != nil {
				return c.evaluate(body)
			}
			return keys.oprf.Evaluate(body)
		}, nil
	case keyservice.VOPRF:
		if keys.voprf == nil {
			return nil, noKey
		}
		return func(body []byte) ([]byte, error) { return withProof(keys.voprf.Evaluate(body)) }, nil
	case keyservice.POPRF:
		if keys.poprf == nil {
			return nil, noKey
		}
		info, err := keyservice.DecodeInfo(r.Header.Get(keyservice.InfoHeader))
		if err != nil {
			return nil, &refusal{status: http.StatusBadRequest, reason: "info: " + err.Error()}
		}
		return func(body []byte) ([]byte, error) { return withProof(keys.poprf.Evaluate(body, info)) }, nil
	case keyservice.Threshold:
		if keys.share == nil {
			return nil, noKey
		}
		quorum, err := keyservice.DecodeQuorum(r.URL.Query().Get(keyservice.QuorumParam))
		if err != nil {
			return nil, &refusal{status: http.StatusBadRequest, reason: err.Error()}
		}
		return func(body []byte) ([]byte, error) { return keys.share.Evaluate(quorum, body) }, nil
	}
	return nil, &refusal{status: http.StatusNotFound, reason: "no protocol " + string(protocol)}
}

// withProof is a VOPRF or POPRF answer: the elements, then the proof.
func withProof(evaluated, proof []byte, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	return append(evaluated, proof...), nil
}

// readBody reads a request of whole elements within the limits.
func (s *service) readBody(w http.ResponseWriter, r *http.Request, suite oblivex.Suite) ([]byte, *refusal) {
	limit := int64(s.maxElements * suite.ElementLen())
	tooLarge := &refusal{status: http.StatusRequestEntityTooLarge, reason: fmt.Sprintf("more than %d elements", s.maxElements)}
	if r.ContentLength > limit {
		return nil, tooLarge
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var overLimit *http.MaxBytesError
	if errors.As(err, &overLimit) {
		return nil, tooLarge
	}
	if err != nil {
		return nil, &refusal{status: http.StatusBadRequest, reason: "reading the body: " + err.Error()}
	}
	if len(body) == 0 || len(body)%suite.ElementLen() != 0 {
		return nil, &refusal{status: http.StatusBadRequest, reason: fmt.Sprintf("the body is not a whole, non-zero number of %v elements", suite)}
	}
	return body, nil
}

// libraryRefusal maps the library's refusal of a request to a status:
// the client's mistakes are 400 (nothing was evaluated), the rest 500.
func libraryRefusal(err error) *refusal {
	for _, clientErr := range []error{oblivex.ErrBadLength, oblivex.ErrInvalidElement, oblivex.ErrInvalidPartyID,
		oblivex.ErrInvalidInput, oblivex.ErrEmptyInput} {
		if errors.Is(err, clientErr) {
			return &refusal{status: http.StatusBadRequest, reason: err.Error()}
		}
	}
	log.Printf("evaluation failed: %v", err)
	return &refusal{status: http.StatusInternalServerError, reason: "evaluation failed"}
}

// refuse answers with status and a one-line reason, counted by status.
func (s *service) refuse(w http.ResponseWriter, status int, reason string) {
	s.metrics.refused(status)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	io.WriteString(w, reason+"\n")
}

func writeBody(w http.ResponseWriter, b []byte) {
	w.Header().Set("Content-Type", keyservice.ContentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.Write(b)
}

// logf logs a request line (client, suite, protocol, status, counts:
// never a body, a key or a token) when request logging is on.
func (s *service) logf(format string, args ...any) {
	if s.logRequests {
		log.Printf(format, args...)
	}
}
