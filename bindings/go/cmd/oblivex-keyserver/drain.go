package main

import (
	"context"
	"sync"
	"time"
)

// answerSettle is how long a drain waits, after the last evaluate handler
// has returned, before http.Server.Shutdown closes the connections. Go's
// HTTP/2 server (1.19 here) marks a connection idle once its last stream
// is done while that stream's final frames may still sit in the
// connection's write queue, and Shutdown closes idle connections at once:
// without the pause a client could lose the end of an answer that was
// evaluated and counted. The queue drains in microseconds on loopback;
// the pause leaves room for a loaded machine.
const answerSettle = 250 * time.Millisecond

// requestGate counts the evaluate requests being served, so that a drain
// refuses new ones and waits for every admitted one to be answered before
// the server closes its connections.
type requestGate struct {
	mu      sync.Mutex
	closed  bool
	running int
	idle    chan struct{} // closed once the gate is closed and nothing runs
}

func newRequestGate() *requestGate {
	return &requestGate{idle: make(chan struct{})}
}

// enter admits a request (leave must follow), or refuses it once the
// gate is closed.
func (g *requestGate) enter() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false
	}
	g.running++
	return true
}

// leave ends an admitted request.
func (g *requestGate) leave() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.running--
	if g.closed && g.running == 0 {
		close(g.idle)
	}
}

// closeAndWait refuses new requests, waits for the admitted ones to return
// (or ctx to end), then for answerSettle.
func (g *requestGate) closeAndWait(ctx context.Context) error {
	g.mu.Lock()
	if !g.closed {
		g.closed = true
		if g.running == 0 {
			close(g.idle)
		}
	}
	g.mu.Unlock()
	select {
	case <-g.idle:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-time.After(answerSettle):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
