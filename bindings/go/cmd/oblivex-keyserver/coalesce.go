package main

import (
	"sync"
	"time"

	oblivex "github.com/oblivex/oblivex/bindings/go"
)

// coalescer gathers small plain-OPRF requests from any clients into one
// engine batch: the first request waits at most delay for others, up to
// maxBytes in all, then the batch is evaluated in one call and each
// request gets exactly its own elements back. Plain OPRF evaluation is
// element by element with one key and no proof, so the batch's answer is
// the requests' answers concatenated. Batches are evaluated by workers
// (one per core) while the next one gathers.
type coalescer struct {
	server   *oblivex.OPRFServer
	delay    time.Duration
	maxBytes int
	jobs     chan *job
	batches  chan []*job
	done     sync.WaitGroup
	metrics  *metrics
}

// job is one request in a batch and where its answer goes.
type job struct {
	blinded []byte
	answer  chan answer
}

type answer struct {
	evaluated []byte
	err       error
}

func newCoalescer(server *oblivex.OPRFServer, delay time.Duration, maxElements, workers int, m *metrics) *coalescer {
	c := &coalescer{
		server:   server,
		delay:    delay,
		maxBytes: maxElements * server.Suite().ElementLen(),
		jobs:     make(chan *job, 4*maxElements),
		batches:  make(chan []*job),
		metrics:  m,
	}
	c.done.Add(1 + workers)
	go c.gather()
	for i := 0; i < workers; i++ {
		go c.work()
	}
	return c
}

// evaluate answers one request through a batch. Safe for concurrent use
// until close.
func (c *coalescer) evaluate(blinded []byte) ([]byte, error) {
	j := &job{blinded: blinded, answer: make(chan answer, 1)}
	c.jobs <- j
	a := <-j.answer
	return a.evaluated, a.err
}

// close stops the coalescer once every request given to it is answered
// (call it when no more evaluate calls can come).
func (c *coalescer) close() {
	close(c.jobs)
	c.done.Wait()
}

// gather makes batches: the first request opens one, which closes when
// delay has passed or it is full.
func (c *coalescer) gather() {
	defer c.done.Done()
	defer close(c.batches)
	var held *job // a request that did not fit, opening the next batch
	for {
		first := held
		if first == nil {
			var ok bool
			if first, ok = <-c.jobs; !ok {
				return
			}
		}
		batch, size := []*job{first}, len(first.blinded)
		held = nil
		timer := time.NewTimer(c.delay)
	fill:
		for size < c.maxBytes {
			select {
			case j, ok := <-c.jobs:
				if !ok {
					break fill
				}
				if size+len(j.blinded) > c.maxBytes {
					held = j
					break fill
				}
				batch, size = append(batch, j), size+len(j.blinded)
			case <-timer.C:
				break fill
			}
		}
		timer.Stop()
		c.batches <- batch
	}
}

// work evaluates batches.
func (c *coalescer) work() {
	defer c.done.Done()
	for batch := range c.batches {
		c.metrics.coalesced.Add("batches", 1)
		c.metrics.coalesced.Add("requests", int64(len(batch)))
		c.run(batch)
	}
}

// run evaluates one batch. If the library refuses it (some request holds
// an invalid element), each request is evaluated alone, so that only the
// bad ones fail and every client gets its own status.
func (c *coalescer) run(batch []*job) {
	if len(batch) == 1 {
		evaluated, err := c.server.Evaluate(batch[0].blinded)
		batch[0].answer <- answer{evaluated, err}
		return
	}
	var size int
	for _, j := range batch {
		size += len(j.blinded)
	}
	joined := make([]byte, 0, size)
	for _, j := range batch {
		joined = append(joined, j.blinded...)
	}
	evaluated, err := c.server.Evaluate(joined)
	if err != nil {
		for _, j := range batch {
			evaluated, err := c.server.Evaluate(j.blinded)
			j.answer <- answer{evaluated, err}
		}
		return
	}
	for _, j := range batch {
		n := len(j.blinded)
		j.answer <- answer{evaluated[:n:n], nil}
		evaluated = evaluated[n:]
	}
}
