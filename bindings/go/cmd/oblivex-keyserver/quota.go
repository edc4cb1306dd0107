package main

import (
	"sync"
	"time"
)

// quota counts the elements each client had evaluated in the current
// window (fixed windows, the same for every client) and refuses what
// would go over the limit. In memory: one instance's view only
// (docs/DEPLOYMENT.md says what a multi-instance deployment must add).
type quota struct {
	mu     sync.Mutex
	limit  int64
	window time.Duration
	now    func() time.Time
	start  time.Time // the current window's start
	serial int64     // the current window's number, for refunds
	used   map[string]int64
}

func newQuota(limit int64, window time.Duration, now func() time.Time) *quota {
	return &quota{limit: limit, window: window, now: now, start: now(), used: map[string]int64{}}
}

// ticket is a granted reservation: the window it was counted in.
type ticket struct {
	serial int64
}

// take counts n elements for client if they fit in its quota; otherwise
// it counts nothing and says how long until the window ends.
func (q *quota) take(client string, n int64) (ticket, time.Duration, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	now := q.now()
	if elapsed := now.Sub(q.start); elapsed >= q.window {
		q.start = q.start.Add(elapsed / q.window * q.window)
		q.serial++
		q.used = map[string]int64{} // every client's count starts again; the map holds only this window's clients
	}
	if q.used[client]+n > q.limit {
		return ticket{}, q.start.Add(q.window).Sub(now), false
	}
	q.used[client] += n
	return ticket{serial: q.serial}, 0, true
}

// refund gives back n elements taken with t that were not evaluated (the
// request was refused), if its window is still the current one.
func (q *quota) refund(client string, n int64, t ticket) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if t.serial == q.serial {
		q.used[client] -= n
	}
}
