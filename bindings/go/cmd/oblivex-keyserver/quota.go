package main

import (
	"sync"
	"time"
)

// quota counts the elements each client had evaluated in the current
// window (fixed windows, the same for every client) and refuses what
// would go over the limit. It also counts each client's refused requests
// (a bad encoding, a body too large: work the server did for nothing),
// against a budget of their own: past it the client is refused before
// evaluation, until the window ends. One instance's view only
// (docs/DEPLOYMENT.md says what a multi-instance deployment must add); in
// memory, or made durable by a journal (-quota-state, journal.go).
type quota struct {
	mu           sync.Mutex
	limit        int64
	refusalLimit int64 // refused requests a client may have per window
	window       time.Duration
	now          func() time.Time
	start        time.Time // the current window's start
	serial       int64     // the current window's number, for refunds
	used         map[string]int64
	refused      map[string]int64
	// journal, when set (-quota-state), makes every take durable before
	// its request is answered (see persist).
	journal *journal
}

func newQuota(limit, refusalLimit int64, window time.Duration, now func() time.Time) *quota {
	return &quota{limit: limit, refusalLimit: refusalLimit, window: window, now: now, start: now(),
		used: map[string]int64{}, refused: map[string]int64{}}
}

// restore continues the window a journal held (its start and each
// client's elements), and keeps the journal for what follows. A start
// later than now (the clock stepped back since the journal was written)
// becomes now, the counts kept: the window would otherwise not end until
// the clock came back.
func (q *quota) restore(j *journal, state journalState) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.journal, q.start, q.used = j, state.start, state.used
	if now := q.now(); q.start.After(now) {
		q.start = now
	}
	q.roll()
}

// roll starts a new window when the current one has ended: every client's
// counts start again (the maps hold only this window's clients), and so
// does the journal. Called with q.mu held; returns the time it read.
func (q *quota) roll() time.Time {
	now := q.now()
	if elapsed := now.Sub(q.start); elapsed >= q.window {
		q.start = q.start.Add(elapsed / q.window * q.window)
		q.serial++
		q.used = map[string]int64{}
		q.refused = map[string]int64{}
		if q.journal != nil {
			q.journal.newWindow(q.window, q.start)
		}
	}
	return now
}

// ticket is a granted reservation: the window it was counted in, and its
// journal record (0: none).
type ticket struct {
	serial int64
	record uint64
}

// take counts n elements for client if they fit in its quota; otherwise
// it counts nothing and says how long until the window ends.
func (q *quota) take(client string, n int64) (ticket, time.Duration, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	now := q.roll()
	if q.used[client]+n > q.limit {
		return ticket{}, q.start.Add(q.window).Sub(now), false
	}
	q.used[client] += n
	t := ticket{serial: q.serial}
	if q.journal != nil {
		t.record = q.journal.append(recordTake, client, n)
	}
	return t, 0, true
}

// persist returns once the take of t is on disk (at once without a
// journal): call it before answering what t pays for. An error means the
// take may not be durable: withhold the answer (and refund t).
func (q *quota) persist(t ticket) error {
	if q.journal == nil || t.record == 0 {
		return nil
	}
	return q.journal.sync(t.record)
}

// refund gives back n elements taken with t that were not answered (the
// request was refused), if its window is still the current one.
func (q *quota) refund(client string, n int64, t ticket) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if t.serial == q.serial {
		q.used[client] -= n
		if q.journal != nil {
			q.journal.append(recordRefund, client, n)
		}
	}
}

// admit says whether client may send a request: not once its refused
// requests of this window reached the refusal budget (then it says how
// long until the window ends).
func (q *quota) admit(client string) (time.Duration, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	now := q.roll()
	if q.refused[client] >= q.refusalLimit {
		return q.start.Add(q.window).Sub(now), false
	}
	return 0, true
}

// countRefusal counts one refused request of client.
func (q *quota) countRefusal(client string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.roll()
	q.refused[client]++
}

// hasRefusals says whether client had a request refused in this window:
// its requests are then evaluated alone, not coalesced with other
// clients' (a batch holding an invalid element fails as a whole, and is
// split to find it, at the cost of every request in it).
func (q *quota) hasRefusals(client string) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.roll()
	return q.refused[client] > 0
}
