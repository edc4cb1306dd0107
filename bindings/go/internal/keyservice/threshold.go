package keyservice

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	oblivex "github.com/oblivex/oblivex/bindings/go"
)

// Server is one of the m servers of a threshold deployment: its party id
// (the id of the share it holds) and how to call it.
type Server struct {
	// ID is the server's party id, 1..MaxParties, from the deployment's
	// configuration (never from the server's answer).
	ID uint16
	// Client calls it.
	Client *Client
}

// Outcome is what a threshold call learned about the servers besides the
// outputs: who was caught cheating, who did not answer in time, who
// refused or failed otherwise, and whose answer was not waited for.
type Outcome struct {
	// Cheaters are the servers whose answers failed their check.
	Cheaters []uint16
	// TimedOut are the servers with no answer within the per-server
	// timeout.
	TimedOut []uint16
	// Failed are the servers that answered with an error or could not be
	// reached, with the error.
	Failed map[uint16]error
	// NotAwaited are the servers still answering when t answers had
	// passed their checks: their calls were cancelled, and nothing is
	// known of them.
	NotAwaited []uint16
}

// String lists the servers named, for a log line.
func (o *Outcome) String() string {
	failed := make([]uint16, 0, len(o.Failed))
	for id := range o.Failed {
		failed = append(failed, id)
	}
	return fmt.Sprintf("cheaters %v, timed out %v, failed %v, not awaited %v",
		sorted(o.Cheaters), sorted(o.TimedOut), sorted(failed), sorted(o.NotAwaited))
}

// Blames reports whether the outcome names a server as cheating, timed
// out or failed (servers not awaited are not blamed).
func (o *Outcome) Blames() bool {
	return len(o.Cheaters) > 0 || len(o.TimedOut) > 0 || len(o.Failed) > 0
}

// sorted is a sorted copy of ids.
func sorted(ids []uint16) []uint16 {
	out := append([]uint16{}, ids...)
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// batch is a blinded threshold batch: its request, the check of one
// answer, its last step, and Close.
type batch interface {
	Request() []byte
	CheckResponse(oblivex.Response) error
	Finalize([]oblivex.Response) ([][]byte, []uint16, error)
	Close() error
}

// reply is one server's answer, or why there is none.
type reply struct {
	id   uint16
	body []byte
	err  error
}

// fanOut sends request to every server at once, each call bounded by
// timeout, and returns the replies as they come; cancel stops the calls
// still running.
func fanOut(ctx context.Context, servers []Server, suite oblivex.Suite, request []byte,
	timeout time.Duration) (replies <-chan reply, cancel func()) {
	ctx, cancel = context.WithCancel(ctx)
	out := make(chan reply, len(servers)) // never blocks a caller that left
	for _, s := range servers {
		go func(s Server) {
			callCtx, done := context.WithTimeout(ctx, timeout)
			defer done()
			body, err := s.Client.Evaluate(callCtx, suite, Threshold, request, nil, nil)
			if err != nil && callCtx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
				err = context.DeadlineExceeded
			}
			out <- reply{s.ID, body, err}
		}(s)
	}
	return out, cancel
}

// collect checks each answer as it arrives (without spending the batch)
// and returns as soon as t have passed, or when every server has
// answered or failed: the answers that passed (at most t) and the
// outcome, whose NotAwaited are the servers still running.
func collect(b batch, replies <-chan reply, servers []Server, threshold int) ([]oblivex.Response, *Outcome) {
	outcome := &Outcome{Failed: map[uint16]error{}}
	pending := make(map[uint16]bool, len(servers))
	for _, s := range servers {
		pending[s.ID] = true
	}
	var passed []oblivex.Response
	for len(pending) > 0 && len(passed) < threshold {
		r := <-replies
		delete(pending, r.id)
		if r.err == nil {
			response := oblivex.Response{Party: r.id, Elements: r.body}
			r.err = b.CheckResponse(response)
			if r.err == nil {
				passed = append(passed, response)
				continue
			}
		}
		switch {
		case errors.Is(r.err, oblivex.ErrVerificationFailed):
			outcome.Cheaters = append(outcome.Cheaters, r.id)
		case errors.Is(r.err, context.DeadlineExceeded):
			outcome.TimedOut = append(outcome.TimedOut, r.id)
		default:
			outcome.Failed[r.id] = r.err
		}
	}
	for id := range pending {
		outcome.NotAwaited = append(outcome.NotAwaited, id)
	}
	outcome.TimedOut, outcome.NotAwaited = sorted(outcome.TimedOut), sorted(outcome.NotAwaited)
	return passed, outcome
}

// blindAndRun blinds a batch, fans it out, checks each answer as it
// arrives and finalizes the batch with the first threshold answers that
// passed, without waiting for the other servers: the outputs and the
// outcome (its Cheaters also when the batch fails).
func blindAndRun(ctx context.Context, blind func() (batch, error), servers []Server, suite oblivex.Suite,
	threshold int, timeout time.Duration) ([][]byte, *Outcome, error) {
	b, err := blind()
	if err != nil {
		return nil, nil, err
	}
	defer b.Close()
	replies, cancel := fanOut(ctx, servers, suite, b.Request(), timeout)
	defer cancel()
	passed, outcome := collect(b, replies, servers, threshold)
	outputs, cheaters, err := b.Finalize(passed)
	var named *oblivex.CheatingServersError
	if errors.As(err, &named) {
		cheaters = named.Servers
	}
	// Every answer given to Finalize passed its check: it names nobody
	// unless a cheater passed with probability 2^-κ and failed there.
	outcome.Cheaters = append(outcome.Cheaters, cheaters...)
	if err != nil {
		return nil, outcome, fmt.Errorf("%w (%v)", err, outcome)
	}
	return outputs, outcome, nil
}

// ThresholdOPRF evaluates inputs with the threshold OPRF of commitments'
// sharing: one request to every server, concurrently, each bounded by
// timeout; the outputs (Suite.OutputLen bytes each) come from the first t
// answers that pass their checks, the outcome names the rest.
func ThresholdOPRF(ctx context.Context, commitments *oblivex.Commitments, servers []Server, inputs [][]byte,
	timeout time.Duration) ([][]byte, *Outcome, error) {
	client, err := oblivex.NewThresholdOPRFClient(commitments, nil, 0)
	if err != nil {
		return nil, nil, err
	}
	return blindAndRun(ctx, func() (batch, error) { return client.Blind(inputs) }, servers, commitments.Suite(),
		commitments.Threshold(), timeout)
}

// BlindBLS signs messages with the threshold blind BLS signers of keySet,
// as ThresholdOPRF: the signatures verify under keySet.PublicKey().
func BlindBLS(ctx context.Context, keySet *oblivex.BLSKeySet, servers []Server, messages [][]byte,
	timeout time.Duration) ([][]byte, *Outcome, error) {
	client, err := oblivex.NewBLSClient(keySet, nil, 0)
	if err != nil {
		return nil, nil, err
	}
	return blindAndRun(ctx, func() (batch, error) { return client.Blind(messages) }, servers, oblivex.SuiteBLS12381G1,
		keySet.Threshold(), timeout)
}

// Checked evaluates inputs with the checked batch OPRF against one server
// whose public key the caller obtained authentically: every output, or
// oblivex.ErrVerificationFailed (the server cheated) and none.
func Checked(ctx context.Context, server *Client, publicKey *oblivex.PublicKey, inputs [][]byte) ([][]byte, error) {
	client, err := oblivex.NewCheckedClient(publicKey.Suite(), oblivex.CheckCommittedKey, publicKey, 0)
	if err != nil {
		return nil, err
	}
	b, err := client.Blind(inputs)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	answer, err := server.Evaluate(ctx, publicKey.Suite(), OPRF, b.Request(), nil, nil)
	if err != nil {
		return nil, err
	}
	return b.Finalize(answer)
}
