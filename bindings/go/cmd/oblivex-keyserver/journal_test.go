package main

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	oblivex "github.com/oblivex/oblivex/bindings/go"
	"github.com/oblivex/oblivex/bindings/go/internal/keyservice"
)

// journaledQuota is a quota of limit elements per minute kept in dir's
// journal, on the clock *now.
func journaledQuota(t *testing.T, dir string, limit int64, now *time.Time) *quota {
	t.Helper()
	q := newQuota(limit, 16, time.Minute, func() time.Time { return *now })
	j, state, err := openJournal(dir, time.Minute, *now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.close() })
	q.restore(j, state)
	return q
}

// take takes n of client's quota and makes it durable.
func take(t *testing.T, q *quota, client string, n int64) ticket {
	t.Helper()
	granted, _, ok := q.take(client, n)
	if !ok {
		t.Fatalf("%s: %d refused", client, n)
	}
	if err := q.persist(granted); err != nil {
		t.Fatal(err)
	}
	return granted
}

// TestQuotaJournal: a reopened journal gives back each client's spent
// quota (refunds included) in the same window, a new window starts from
// nothing and compacts the file, a torn final record is cut off, and a
// damaged record or another window length stops the opening.
func TestQuotaJournal(t *testing.T) {
	dir := t.TempDir()
	now := time.Unix(1000, 0)
	q := journaledQuota(t, dir, 10, &now)
	take(t, q, "alice", 6)
	refunded := take(t, q, "alice", 3)
	q.refund("alice", 3, refunded)
	take(t, q, "bob", 10)
	// A restart within the window: the spent quota is there.
	now = now.Add(30 * time.Second)
	q = journaledQuota(t, dir, 10, &now)
	if _, _, ok := q.take("alice", 5); ok {
		t.Error("alice's 6 elements forgotten by a restart")
	}
	take(t, q, "alice", 4)
	if _, _, ok := q.take("bob", 1); ok {
		t.Error("bob's 10 elements forgotten by a restart")
	}
	path := filepath.Join(dir, journalName)
	whole := must(os.ReadFile(path))
	// A torn final record: cut off, the rest kept.
	if err := os.WriteFile(path, append(append([]byte{}, whole...), recordTake, 0, 0), 0o600); err != nil {
		t.Fatal(err)
	}
	q = journaledQuota(t, dir, 10, &now)
	if _, _, ok := q.take("alice", 1); ok {
		t.Error("a torn record lost the records before it")
	}
	if size := must(os.Stat(path)).Size(); size != int64(len(whole)) {
		t.Errorf("torn record not cut off: %d bytes, want %d", size, len(whole))
	}
	// A damaged record (a bit of the first record's count flipped): no
	// start.
	damaged := append([]byte{}, whole...)
	damaged[len(journalMagic)+20+5] ^= 1
	if err := os.WriteFile(path, damaged, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := openJournal(dir, time.Minute, now); !errors.Is(err, errJournalCorrupt) {
		t.Fatalf("a damaged record: %v", err)
	}
	if err := os.WriteFile(path, whole, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := openJournal(dir, time.Hour, now); err == nil || !strings.Contains(err.Error(), "-quota-window") {
		t.Fatalf("another window length: %v", err)
	}
	// The next window: nothing spent, and the journal holds its header
	// alone.
	now = now.Add(time.Minute)
	q = journaledQuota(t, dir, 10, &now)
	take(t, q, "alice", 10)
	if size := must(os.Stat(path)).Size(); size >= int64(len(whole)) {
		t.Errorf("the journal was not compacted at the window's end: %d bytes", size)
	}
}

// TestQuotaSurvivesSIGKILL: clients spend their quota while the server is
// killed (SIGKILL) and restarted on the same -quota-state: the elements
// answered in the window never exceed the quota, and the restart counts
// each take once (the answered total falls short of the quota by at most
// the requests in flight at the kill, whose takes were made durable but
// whose answers were lost). A damaged journal then stops the server from
// starting.
func TestQuotaSurvivesSIGKILL(t *testing.T) {
	const (
		quota     = 400
		size      = 5 // elements per request
		inFlight  = 4 // clients, one request each at a time
		killAfter = 150
	)
	e := newEnv(t)
	suite := oblivex.SuiteRistretto255
	keyFile, _ := e.keyFile(t, suite)
	state := t.TempDir()
	args := append(e.tlsArgs(), "-key", fmt.Sprintf("%v=%s", suite, keyFile), "-quota", fmt.Sprint(quota),
		"-quota-window", "1h", "-quota-state", state, "-max-elements", "64")
	request := must(must(oblivex.NewOPRFClient(suite)).Blind(inputsOf("durable", size))).Request()
	var answered atomic.Int64
	// load sends requests from inFlight clients until the quota refuses
	// one (true) or the server is gone (false), killing it once
	// killAfter elements are answered when kill is set.
	load := func(p *process, kill bool) bool {
		c := e.client(p)
		var refused atomic.Bool
		var wg sync.WaitGroup
		for i := 0; i < inFlight; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					status, err := send(c, keyservice.EvaluatePath(suite, keyservice.OPRF), request, nil)
					switch {
					case err != nil:
						return
					case status == http.StatusTooManyRequests:
						refused.Store(true)
						return
					case status != http.StatusOK:
						t.Errorf("status %d", status)
						return
					}
					if answered.Add(size) >= killAfter && kill {
						p.stop(syscall.SIGKILL)
					}
				}
			}()
		}
		wg.Wait()
		return refused.Load()
	}
	first := startServer(t, serverBin, args...)
	if load(first, true) {
		t.Fatalf("the quota ran out before the kill (%d answered)", answered.Load())
	}
	atKill := answered.Load()
	second := startServer(t, serverBin, args...)
	if !load(second, false) {
		t.Fatal("the restarted server went away")
	}
	total := answered.Load()
	t.Logf("%d elements answered before the kill, %d in all, quota %d", atKill, total, quota)
	if total > quota {
		t.Errorf("%d elements answered in one window, quota %d: the restart forgot spent quota", total, quota)
	}
	if total < quota-inFlight*size {
		t.Errorf("%d elements answered, quota %d: the restart counted takes more than once", total, quota)
	}
	second.stop(syscall.SIGTERM)
	// A damaged journal: the server refuses to start.
	path := filepath.Join(state, journalName)
	journal := must(os.ReadFile(path))
	journal[len(journalMagic)+20+1] ^= 0x10
	if err := os.WriteFile(path, journal, 0o600); err != nil {
		t.Fatal(err)
	}
	if p, err := launch(serverBin, args...); err == nil {
		p.stop(syscall.SIGKILL)
		t.Fatal("started on a damaged journal")
	} else if !strings.Contains(err.Error(), "corrupted") {
		t.Fatalf("a damaged journal: %v", err)
	}
}
