package main

import (
	"runtime"
	"sync"
	"time"

	oblivex "github.com/oblivex/oblivex/bindings/go"
)

// coalescer gathers small plain-OPRF requests from any clients into one
// engine batch, and each request gets exactly its own elements back:
// plain OPRF evaluation is element by element with one key and no proof,
// so the batch's answer is the requests' answers concatenated. A batch is
// handed to a worker (one per core) as soon as one is free; while every
// worker is busy it keeps gathering, for at most delay after its first
// request and up to maxBytes in all. So a lone request on an idle server
// waits for nobody, and under load the batches grow to what arrives while
// the workers evaluate the previous ones.
type coalescer struct {
	server   batchEvaluator
	delay    time.Duration
	maxBytes int
	jobs     chan *job
	batches  chan []*job
	done     sync.WaitGroup
	metrics  *metrics
}

// batchEvaluator is what the coalescer evaluates with: an OPRF server
// (a counting one in the tests).
type batchEvaluator interface {
	Evaluate(blinded []byte) ([]byte, error)
	Suite() oblivex.Suite
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

func newCoalescer(server batchEvaluator, delay time.Duration, maxElements, workers int, m *metrics) *coalescer {
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
	a := <-c.submit(blinded).answer
	return a.evaluated, a.err
}

// submit gives a request to the coalescer without waiting: its answer
// comes on the job's channel.
func (c *coalescer) submit(blinded []byte) *job {
	j := &job{blinded: blinded, answer: make(chan answer, 1)}
	c.jobs <- j
	return j
}

// close stops the coalescer once every request given to it is answered
// (call it when no more evaluate calls can come).
func (c *coalescer) close() {
	close(c.jobs)
	c.done.Wait()
}

// gather makes batches: the first request opens one, which takes every
// request already waiting (after letting the goroutines runnable beside
// it submit theirs), then goes to the first free worker; until one is
// free it takes the requests that arrive, and when delay has passed or it
// is full it waits for a worker without growing.
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
		b := &gathering{jobs: []*job{first}, size: len(first.blinded), maxBytes: c.maxBytes}
		held = nil
		timer := time.NewTimer(c.delay)
		handed, yielded := false, false
	fill:
		for !b.full() {
			select {
			case j, ok := <-c.jobs: // waiting already: always taken
				if held = b.add(j, ok); held != nil || !ok {
					break fill
				}
				continue
			default:
			}
			if !yielded {
				// The request that woke this goroutine runs it first;
				// the clients' goroutines made runnable with it (by the
				// same network poll) submit theirs before a free worker
				// is offered the batch.
				yielded = true
				runtime.Gosched()
				continue
			}
			select {
			case c.batches <- b.jobs:
				handed = true
				break fill
			case j, ok := <-c.jobs:
				if held = b.add(j, ok); held != nil || !ok {
					break fill
				}
			case <-timer.C:
				break fill
			}
		}
		timer.Stop()
		if !handed {
			c.batches <- b.jobs
		}
	}
}

// gathering is a batch being gathered.
type gathering struct {
	jobs     []*job
	size     int
	maxBytes int
}

func (b *gathering) full() bool { return b.size >= b.maxBytes }

// add takes j (ok false: the jobs channel closed, nothing to take) and
// returns it if it does not fit, to open the next batch.
func (b *gathering) add(j *job, ok bool) *job {
	if !ok {
		return nil
	}
	if b.size+len(j.blinded) > b.maxBytes {
		return j
	}
	b.jobs, b.size = append(b.jobs, j), b.size+len(j.blinded)
	return nil
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
// an invalid element), the batch is split in halves and each is run the
// same way: the requests that are fine are still answered from batches,
// and only the bad ones fail, each with its own status. One bad request
// among n costs about 2·log2(n) library calls on ever smaller batches
// (the library checks every element before it evaluates any), where a
// retry of each request alone cost n calls of one request each, and so
// every client's throughput (a refused request sent once per coalescing
// delay poisoned every batch).
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
		c.metrics.coalesced.Add("splits", 1)
		half := len(batch) / 2
		c.run(batch[:half])
		c.run(batch[half:])
		return
	}
	for _, j := range batch {
		n := len(j.blinded)
		j.answer <- answer{evaluated[:n:n], nil}
		evaluated = evaluated[n:]
	}
}
