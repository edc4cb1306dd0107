package keyservice

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
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
// outputs: who was caught cheating, who did not answer in time, and who
// refused or failed otherwise.
type Outcome struct {
	// Cheaters are the servers whose answers failed their check.
	Cheaters []uint16
	// TimedOut are the servers with no answer within the per-server
	// timeout.
	TimedOut []uint16
	// Failed are the servers that answered with an error or could not be
	// reached, with the error.
	Failed map[uint16]error
}

// String lists the servers named, for a log line.
func (o *Outcome) String() string {
	failed := make([]uint16, 0, len(o.Failed))
	for id := range o.Failed {
		failed = append(failed, id)
	}
	sort.Slice(failed, func(i, j int) bool { return failed[i] < failed[j] })
	return fmt.Sprintf("cheaters %v, timed out %v, failed %v", o.Cheaters, o.TimedOut, failed)
}

// fanOut sends request to every server at once, each call bounded by
// timeout, and returns the answers in arrival order with the servers that
// gave none. It returns when every server has answered or failed: an
// answer cannot be checked without spending the batch, so the library
// takes the t correct ones from all that came (docs/DEPLOYMENT.md).
func fanOut(ctx context.Context, servers []Server, suite oblivex.Suite, request []byte,
	timeout time.Duration) ([]oblivex.Response, *Outcome) {
	type answer struct {
		id   uint16
		body []byte
		err  error
	}
	answers := make(chan answer, len(servers))
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Add(1)
		go func(s Server) {
			defer wg.Done()
			callCtx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			body, err := s.Client.Evaluate(callCtx, suite, Threshold, request, nil, nil)
			if err != nil && callCtx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
				err = context.DeadlineExceeded
			}
			answers <- answer{s.ID, body, err}
		}(s)
	}
	wg.Wait()
	close(answers)
	outcome := &Outcome{Failed: map[uint16]error{}}
	var responses []oblivex.Response
	for a := range answers {
		switch {
		case errors.Is(a.err, context.DeadlineExceeded):
			outcome.TimedOut = append(outcome.TimedOut, a.id)
		case a.err != nil:
			outcome.Failed[a.id] = a.err
		default:
			responses = append(responses, oblivex.Response{Party: a.id, Elements: a.body})
		}
	}
	sort.Slice(outcome.TimedOut, func(i, j int) bool { return outcome.TimedOut[i] < outcome.TimedOut[j] })
	return responses, outcome
}

// batch is a blinded threshold batch: its request, its last step, and
// Close.
type batch interface {
	Request() []byte
	Finalize([]oblivex.Response) ([][]byte, []uint16, error)
	Close() error
}

// blindAndRun blinds a batch, fans it out and finalizes it with the
// answers that came: the outputs and the outcome, whose Cheaters are also
// set when the batch fails with a *CheatingServersError.
func blindAndRun(ctx context.Context, blind func() (batch, error), servers []Server, suite oblivex.Suite,
	timeout time.Duration) ([][]byte, *Outcome, error) {
	b, err := blind()
	if err != nil {
		return nil, nil, err
	}
	defer b.Close()
	responses, outcome := fanOut(ctx, servers, suite, b.Request(), timeout)
	outputs, cheaters, err := b.Finalize(responses)
	var named *oblivex.CheatingServersError
	if errors.As(err, &named) {
		cheaters = named.Servers
	}
	outcome.Cheaters = cheaters
	if err != nil {
		return nil, outcome, fmt.Errorf("%w (%v)", err, outcome)
	}
	return outputs, outcome, nil
}

// ThresholdOPRF evaluates inputs with the threshold OPRF of commitments'
// sharing: one request to every server, concurrently, each bounded by
// timeout; the outputs (Suite.OutputLen bytes each) come from t correct
// answers, the outcome names the rest.
func ThresholdOPRF(ctx context.Context, commitments *oblivex.Commitments, servers []Server, inputs [][]byte,
	timeout time.Duration) ([][]byte, *Outcome, error) {
	client, err := oblivex.NewThresholdOPRFClient(commitments, nil, 0)
	if err != nil {
		return nil, nil, err
	}
	return blindAndRun(ctx, func() (batch, error) { return client.Blind(inputs) }, servers, commitments.Suite(), timeout)
}

// BlindBLS signs messages with the threshold blind BLS signers of keySet,
// as ThresholdOPRF: the signatures verify under keySet.PublicKey().
func BlindBLS(ctx context.Context, keySet *oblivex.BLSKeySet, servers []Server, messages [][]byte,
	timeout time.Duration) ([][]byte, *Outcome, error) {
	client, err := oblivex.NewBLSClient(keySet, nil, 0)
	if err != nil {
		return nil, nil, err
	}
	return blindAndRun(ctx, func() (batch, error) { return client.Blind(messages) }, servers, oblivex.SuiteBLS12381G1, timeout)
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
