package main

import (
	"expvar"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// metrics are the server's counters, expvar values served as one JSON
// object at MetricsPath. They hold counts and timings only: never a key,
// a request or an answer.
type metrics struct {
	requests      *expvar.Map // per protocol (and "public-key", "commitments")
	elements      *expvar.Map // elements evaluated, per protocol
	errors        *expvar.Map // refusals per HTTP status
	latency       *expvar.Map // evaluate latencies: count per bucket "le_<µs>us", and "inf"
	quotaRefusals *expvar.Int
	// refusalBudgetRefusals counts requests refused because their
	// client's refused requests of the window used its refusal budget.
	refusalBudgetRefusals *expvar.Int
	coalesced             *expvar.Map // "batches" and "requests" of the coalescer, and "splits" of refused batches
	all                   *expvar.Map
}

// latencyBuckets are the histogram's upper bounds.
var latencyBuckets = []time.Duration{
	100 * time.Microsecond, 250 * time.Microsecond, 500 * time.Microsecond,
	time.Millisecond, 2500 * time.Microsecond, 5 * time.Millisecond, 10 * time.Millisecond,
	25 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond, 250 * time.Millisecond,
	500 * time.Millisecond, time.Second,
}

func newMetrics() *metrics {
	m := &metrics{
		requests:              new(expvar.Map).Init(),
		elements:              new(expvar.Map).Init(),
		errors:                new(expvar.Map).Init(),
		latency:               new(expvar.Map).Init(),
		quotaRefusals:         new(expvar.Int),
		refusalBudgetRefusals: new(expvar.Int),
		coalesced:             new(expvar.Map).Init(),
		all:                   new(expvar.Map).Init(),
	}
	m.all.Set("requests", m.requests)
	m.all.Set("elements", m.elements)
	m.all.Set("errors", m.errors)
	m.all.Set("latency", m.latency)
	m.all.Set("quota_refusals", m.quotaRefusals)
	m.all.Set("refusal_budget_refusals", m.refusalBudgetRefusals)
	m.all.Set("coalesced", m.coalesced)
	return m
}

// observe records one evaluate call's latency.
func (m *metrics) observe(d time.Duration) {
	for _, bound := range latencyBuckets {
		if d <= bound {
			m.latency.Add("le_"+strconv.FormatInt(bound.Microseconds(), 10)+"us", 1)
			return
		}
	}
	m.latency.Add("inf", 1)
}

// refused records a refusal by its status.
func (m *metrics) refused(status int) { m.errors.Add(strconv.Itoa(status), 1) }

// serveHTTP writes every counter as one JSON object.
func (m *metrics) serveHTTP(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintln(w, m.all.String())
}
