//go:build faults

package faults_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// attempts keeps the driver's attempts of a session that were slow or failed: one per
// host a statement was sent to (a speculative execution is an attempt of its own), so
// a slow API read can be traced to the host and statement that held it.
type attempts struct {
	slow time.Duration
	mu   sync.Mutex
	kept []attempt
	all  int
	// retries are the statements Session retried after a failed attempt.
	retries []attempt
}

type attempt struct {
	start, end time.Time
	host       string
	statement  string
	err        error
}

// ObserveQuery is gocql's QueryObserver: it is called after every attempt.
func (a *attempts) ObserveQuery(_ context.Context, q gocql.ObservedQuery) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.all++
	if q.Err == nil && q.End.Sub(q.Start) < a.slow {
		return
	}
	host := "?"
	if q.Host != nil {
		host = q.Host.ConnectAddress().String()
	}
	a.kept = append(a.kept, attempt{start: q.Start, end: q.End, host: host, statement: q.Statement, err: q.Err})
}

// retried is the store's OnRetry hook.
func (a *attempts) retried(statement string, _ int, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := time.Now()
	a.retries = append(a.retries, attempt{start: now, end: now, statement: statement, err: err})
}

// report logs the kept attempts that ended after from, the slowest first (at most n).
func (a *attempts) report(t testing.TB, from time.Time, n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var after []attempt
	for _, at := range a.kept {
		if at.end.After(from) {
			after = append(after, at)
		}
	}
	sort.Slice(after, func(i, j int) bool { return after[i].end.Sub(after[i].start) > after[j].end.Sub(after[j].start) })
	t.Logf("API driver attempts: %d in all, %d after the kill slower than %s or failed", a.all, len(after), a.slow)
	for i, at := range after {
		if i == n {
			t.Logf("  ... %d more", len(after)-n)
			break
		}
		t.Logf("  +%s %s on %s: %s", at.start.Sub(from).Round(time.Millisecond), at.end.Sub(at.start).Round(time.Millisecond),
			at.host, oneLine(at.statement, at.err))
	}
	for _, r := range a.retries {
		t.Logf("  retry at +%s: %s", r.start.Sub(from).Round(time.Millisecond), oneLine(r.statement, r.err))
	}
}

func oneLine(statement string, err error) string {
	s := strings.Join(strings.Fields(statement), " ")
	if len(s) > 70 {
		s = s[:70] + "…"
	}
	if err != nil {
		s += fmt.Sprintf(" (%v)", err)
	}
	return s
}

// openObserved opens a store as store.Open does, with obs told of every driver attempt.
func openObserved(t testing.TB, cfg cql.Config, obs gocql.QueryObserver) *store.Store {
	t.Helper()
	st := store.New(testcontainers.ObservedSession(t, cfg, obs), testChunk)
	t.Cleanup(st.Close)
	return st
}
