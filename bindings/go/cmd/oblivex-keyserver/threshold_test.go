package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"net"
	"path/filepath"
	"reflect"
	"sync"
	"syscall"
	"testing"
	"time"

	oblivex "github.com/oblivex/oblivex/bindings/go"
	"github.com/oblivex/oblivex/bindings/go/internal/keyservice"
)

// cluster is m servers holding the shares of one sharing.
type cluster struct {
	procs   []*process
	servers []keyservice.Server
}

// startCluster writes each share and the public file, and starts one
// server per share (the wrong-key build for the ids in wrong).
func startCluster(t *testing.T, e *env, suite oblivex.Suite, shares []*oblivex.KeyShare, public []byte, bls bool,
	wrong ...uint16) *cluster {
	t.Helper()
	publicFile := filepath.Join(e.dir, fmt.Sprintf("public-%v-%d", suite, time.Now().UnixNano()))
	writeFile(t, publicFile, public, 0o644)
	c := &cluster{}
	for _, s := range shares {
		shareFile := publicFile + fmt.Sprintf(".share-%d", s.ID())
		writeFile(t, shareFile, must(s.Bytes()), 0o600)
		args := append(e.tlsArgs(), "-share", fmt.Sprintf("%v=%s", suite, shareFile))
		if bls {
			args = append(args, "-bls-keyset", publicFile)
		} else {
			args = append(args, "-commitments", fmt.Sprintf("%v=%s", suite, publicFile))
		}
		bin := serverBin
		for _, id := range wrong {
			if id == s.ID() {
				bin = wrongKeyBin
			}
		}
		p := startServer(t, bin, args...)
		c.procs = append(c.procs, p)
		c.servers = append(c.servers, keyservice.Server{ID: s.ID(), Client: e.client(p)})
	}
	return c
}

const perServer = 5 * time.Second

// thresholdRuns evaluates rounds batches through c and checks each
// against the single-key evaluation; after round killAt (if >= 0) it
// kills server killID. The client combines the first t answers that pass
// their checks, so the cheaters (and the killed server) are named only
// when their answers came before those t: checkOutcome.
func thresholdRuns(t *testing.T, c *cluster, commitments *oblivex.Commitments, single *oblivex.OPRFServer,
	rounds, killAt int, killID uint16, cheaters []uint16) {
	t.Helper()
	for round := 0; round < rounds; round++ {
		killed := uint16(0)
		if killAt >= 0 && round >= killAt {
			killed = killID
		}
		if round == killAt {
			c.procs[killID-1].stop(syscall.SIGKILL)
		}
		inputs := inputsOf(fmt.Sprintf("round %d", round), 1+round%4)
		outputs, outcome, err := keyservice.ThresholdOPRF(context.Background(), commitments, c.servers, inputs, perServer)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if !reflect.DeepEqual(outputs, singleKey(t, single, inputs)) {
			t.Fatalf("round %d: the threshold outputs differ from the single-key evaluation", round)
		}
		checkOutcome(t, outcome, len(c.servers), commitments.Threshold(), cheaters, killed)
	}
}

// checkOutcome checks a successful call's outcome: every server named
// once at most, as a cheater only if it is one of cheaters, as failed
// only if it is killed (0: none), or as not awaited; and the servers not
// named are the t whose answers were combined.
func checkOutcome(t *testing.T, outcome *keyservice.Outcome, servers, threshold int, cheaters []uint16, killed uint16) {
	t.Helper()
	named := map[uint16]string{}
	name := func(kind string, ids ...uint16) {
		for _, id := range ids {
			if _, twice := named[id]; twice {
				t.Fatalf("server %d named twice: %v", id, outcome)
			}
			named[id] = kind
		}
	}
	name("cheater", outcome.Cheaters...)
	name("timed out", outcome.TimedOut...)
	for id := range outcome.Failed {
		name("failed", id)
	}
	name("not awaited", outcome.NotAwaited...)
	for id, kind := range named {
		cheater := false
		for _, c := range cheaters {
			cheater = cheater || (kind == "cheater" && c == id)
		}
		if !(kind == "not awaited" || cheater || (kind == "failed" && id == killed)) {
			t.Fatalf("server %d named %s: %v", id, kind, outcome)
		}
	}
	if servers-len(named) != threshold {
		t.Fatalf("%d answers combined, want the first %d that passed: %v", servers-len(named), threshold, outcome)
	}
}

// TestThresholdDeal: 5 servers with the shares of a dealt 3-of-5 key
// give the single-key outputs; then with one server killed mid-run.
func TestThresholdDeal(t *testing.T) {
	e := newEnv(t)
	suite := oblivex.SuiteRistretto255
	_, single := e.keyFile(t, suite)
	secret := must(single.SecretKey())
	shares, commitments := must2(oblivex.Deal(suite, secret, 3, 5))
	defer commitments.Close()
	c := startCluster(t, e, suite, shares, must(commitments.Bytes()), false)
	thresholdRuns(t, c, commitments, single, 8, 3, 2, nil)
}

// TestThresholdDKGWithCheater: the shares from a DKG run (no dealer);
// server 5 answers with a wrong key and server 2 dies mid-run: the client
// still gets the outputs of the shared key, naming 5 whenever its answer
// came before 3 good ones (TestThresholdFirstAnswers names it always).
func TestThresholdDKGWithCheater(t *testing.T) {
	e := newEnv(t)
	suite := oblivex.SuiteRistretto255
	shares, commitments := runDKG(t, suite, 3, 5)
	single := must(oblivex.NewOPRFServer(suite, reconstruct(t, suite, shares[:3])))
	defer single.Close()
	if !single.PublicKey().Equal(commitments.PublicKey()) {
		t.Fatal("the reconstructed key is not the DKG's")
	}
	c := startCluster(t, e, suite, shares, must(commitments.Bytes()), false, 5)
	thresholdRuns(t, c, commitments, single, 6, 2, 2, []uint16{5})
}

// TestBlindBLS: threshold blind BLS against 5 signers, one with a wrong
// key: it is named if its answer came before 3 good ones, and the
// signatures verify.
func TestBlindBLS(t *testing.T) {
	e := newEnv(t)
	shares, keySet := must2(oblivex.DealBLS(nil, 3, 5))
	defer keySet.Close()
	c := startCluster(t, e, oblivex.SuiteBLS12381G1, shares, must(keySet.Bytes()), true, 3)
	messages := inputsOf("message", 3)
	signatures, outcome, err := keyservice.BlindBLS(context.Background(), keySet, c.servers, messages, perServer)
	if err != nil {
		t.Fatal(err)
	}
	checkOutcome(t, outcome, 5, 3, []uint16{3}, 0)
	for i, s := range signatures {
		if err := keySet.PublicKey().Verify(messages[i], s); err != nil {
			t.Fatalf("signature %d: %v", i, err)
		}
	}
	published := must(c.servers[0].Client.Commitments(context.Background(), oblivex.SuiteBLS12381G1))
	if !bytes.Equal(published, must(keySet.Bytes())) {
		t.Fatal("the server does not publish its key set")
	}
}

// TestThresholdFirstAnswers: 5 servers, 3 needed; server 3 answers with
// a wrong key, server 4 accepts connections and never answers, server 5
// refuses them. With servers 1, 2 and 5 alive the client combines their
// answers without waiting for server 4 (not awaited: its timeout is far
// off); with 5 refusing too, only 2 answers pass, and every server is
// named: 3 a cheater, 4 timed out, 5 failed.
func TestThresholdFirstAnswers(t *testing.T) {
	e := newEnv(t)
	suite := oblivex.SuiteRistretto255
	_, single := e.keyFile(t, suite)
	shares, commitments := must2(oblivex.Deal(suite, must(single.SecretKey()), 3, 5))
	defer commitments.Close()
	c := startCluster(t, e, suite, shares, must(commitments.Bytes()), false, 3)
	servers := append([]keyservice.Server(nil), c.servers...)
	servers[3].Client = &keyservice.Client{Base: "https://" + silentListener(t), HTTP: e.httpTLS, Token: aliceToken}
	inputs := inputsOf("first answers", 2)
	outputs, outcome, err := keyservice.ThresholdOPRF(context.Background(), commitments, servers, inputs, time.Minute)
	if err != nil || !reflect.DeepEqual(outputs, singleKey(t, single, inputs)) {
		t.Fatalf("with 1, 2 and 5: %v", err)
	}
	checkOutcome(t, outcome, 5, 3, []uint16{3}, 0)
	waited := true
	for _, id := range outcome.NotAwaited {
		waited = waited && id != 4
	}
	if waited {
		t.Fatalf("the silent server 4 was waited for: %v", outcome)
	}
	c.procs[4].stop(syscall.SIGKILL)
	_, outcome, err = keyservice.ThresholdOPRF(context.Background(), commitments, servers, inputs, time.Second)
	if !errors.Is(err, oblivex.ErrNotEnoughResponses) {
		t.Fatalf("two good answers of three: %v", err)
	}
	_, failed := outcome.Failed[5]
	if !reflect.DeepEqual(outcome.Cheaters, []uint16{3}) || !reflect.DeepEqual(outcome.TimedOut, []uint16{4}) ||
		len(outcome.Failed) != 1 || !failed || len(outcome.NotAwaited) != 0 {
		t.Fatalf("want cheater 3, 4 timed out, 5 failed: %v", outcome)
	}
}

// silentListener accepts connections on loopback and never answers (a
// hung server); the test's end closes it.
func silentListener(t *testing.T) string {
	t.Helper()
	l := must(net.Listen("tcp", "127.0.0.1:0"))
	var mu sync.Mutex
	var held []net.Conn
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, conn)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, conn := range held {
			conn.Close()
		}
	})
	return l.Addr().String()
}

func must2[A, B any](a A, b B, err error) (A, B) {
	if err != nil {
		panic(err)
	}
	return a, b
}

// runDKG runs a t-of-m DKG among m parties in this process (the messages
// passed in memory) and returns their shares and the commitments.
func runDKG(t *testing.T, suite oblivex.Suite, threshold, parties int) ([]*oblivex.KeyShare, *oblivex.Commitments) {
	t.Helper()
	session := make([]byte, oblivex.DKGSessionIDLen)
	copy(session, "keyserver test")
	starts := make([]*oblivex.DKGRound1, parties)
	for i := range starts {
		starts[i] = must(oblivex.StartDKG(suite, threshold, parties, session, uint16(i+1)))
	}
	broadcasts := make([][]byte, parties)
	inbox := func(me int) []oblivex.DKGMessage {
		var out []oblivex.DKGMessage
		for j, b := range broadcasts {
			if j != me {
				out = append(out, oblivex.DKGMessage{From: uint16(j + 1), Bytes: b})
			}
		}
		return out
	}
	for i, s := range starts {
		broadcasts[i] = s.Broadcast
	}
	round2 := make([]*oblivex.DKGRound2, parties)
	for i, s := range starts {
		var pairs []oblivex.DKGMessage
		for j, other := range starts {
			for _, pair := range other.Shares {
				if int(pair.To) == i+1 {
					pairs = append(pairs, oblivex.DKGMessage{From: uint16(j + 1), Bytes: pair.Bytes})
				}
			}
		}
		round2[i] = must(s.Round2(inbox(i), pairs))
	}
	step := func(next func(i int, in []oblivex.DKGMessage) []byte) {
		sent := make([][]byte, parties)
		for i := range sent {
			sent[i] = next(i, inbox(i))
		}
		broadcasts = sent
	}
	for i, r := range round2 {
		broadcasts[i] = r.Broadcast
	}
	round3 := make([]*oblivex.DKGRound3, parties)
	step(func(i int, in []oblivex.DKGMessage) []byte {
		round3[i] = must(round2[i].Round3(in))
		return round3[i].Broadcast
	})
	round4 := make([]*oblivex.DKGRound4, parties)
	step(func(i int, in []oblivex.DKGMessage) []byte {
		round4[i] = must(round3[i].Round4(in))
		return round4[i].Broadcast
	})
	round5 := make([]*oblivex.DKGRound5, parties)
	step(func(i int, in []oblivex.DKGMessage) []byte {
		round5[i] = must(round4[i].Round5(in))
		return round5[i].Broadcast
	})
	round6 := make([]*oblivex.DKGRound6, parties)
	step(func(i int, in []oblivex.DKGMessage) []byte {
		round6[i] = must(round5[i].Round6(in))
		return round6[i].Broadcast
	})
	shares := make([]*oblivex.KeyShare, parties)
	var commitments *oblivex.Commitments
	for i, r := range round6 {
		out := must(r.Finalize(inbox(i)))
		shares[i] = out.Share
		if commitments == nil {
			commitments = out.Commitments
		} else if !bytes.Equal(must(out.Commitments.Bytes()), must(commitments.Bytes())) {
			t.Fatal("the parties' commitments differ")
		}
	}
	return shares, commitments
}

// ristrettoOrder is the order of the ristretto255 group.
var ristrettoOrder, _ = new(big.Int).SetString("7237005577332262213973186563042994240857116359379907606001950938285454250989", 10)

// reconstruct interpolates the shared ristretto255 key from t shares
// (Lagrange at 0), to compare the deployment with the single key: a test
// can do what no deployment should.
func reconstruct(t *testing.T, suite oblivex.Suite, shares []*oblivex.KeyShare) []byte {
	t.Helper()
	if suite != oblivex.SuiteRistretto255 {
		t.Fatal("reconstruct knows ristretto255 only")
	}
	q := ristrettoOrder
	secret := new(big.Int)
	for _, si := range shares {
		num, den := big.NewInt(1), big.NewInt(1)
		for _, sj := range shares {
			if sj.ID() != si.ID() {
				xj := big.NewInt(int64(sj.ID()))
				num.Mul(num, xj)
				den.Mul(den, new(big.Int).Sub(xj, big.NewInt(int64(si.ID()))))
			}
		}
		lambda := num.Mul(num, den.ModInverse(den.Mod(den, q), q))
		encoded := must(si.Bytes())[2:]
		secret.Add(secret, lambda.Mul(lambda, littleEndian(encoded)))
	}
	return reverse(secret.Mod(secret, q).FillBytes(make([]byte, 32)))
}

func littleEndian(b []byte) *big.Int { return new(big.Int).SetBytes(reverse(b)) }

func reverse(b []byte) []byte {
	out := make([]byte, len(b))
	for i := range b {
		out[len(b)-1-i] = b[i]
	}
	return out
}
