package cql_test

import (
	"context"
	"errors"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// open is a second session on the test keyspace with at most maxInFlight queries in flight,
// observed by obs when not nil.
func (n node) open(t *testing.T, maxInFlight int, obs gocql.QueryObserver) *cql.Session {
	t.Helper()
	cfg := n.cfg
	cfg.MaxInFlight = maxInFlight
	return testcontainers.ObservedSession(t, cfg, obs)
}

// spans records when each query was on the wire.
type spans struct {
	mu  sync.Mutex
	all [][2]time.Time
}

func (s *spans) ObserveQuery(_ context.Context, q gocql.ObservedQuery) {
	s.mu.Lock()
	s.all = append(s.all, [2]time.Time{q.Start, q.End})
	s.mu.Unlock()
}

// maxOverlap is the largest number of queries that were in flight at one instant.
func (s *spans) maxOverlap() (most int) {
	type event struct {
		at    time.Time
		delta int
	}
	var ev []event
	for _, sp := range s.all {
		ev = append(ev, event{sp[0], 1}, event{sp[1], -1})
	}
	sort.Slice(ev, func(i, j int) bool {
		if !ev[i].at.Equal(ev[j].at) {
			return ev[i].at.Before(ev[j].at)
		}
		return ev[i].delta < ev[j].delta // an end before a start at the same instant
	})
	cur := 0
	for _, e := range ev {
		cur += e.delta
		most = max(most, cur)
	}
	return most
}

func testBoundedInFlight(t *testing.T, n node) {
	const writes, limit = 200, 2
	obs := &spans{}
	s := n.open(t, limit, obs)
	var retries atomic.Int32
	s.OnRetry = func(st *cql.Statement, attempt int, err error) { retries.Add(1); t.Logf("retry %d: %v", attempt, err) }

	errs := make(chan error, writes)
	var wg sync.WaitGroup
	for i := range writes {
		wg.Go(func() {
			errs <- s.Write(context.Background(), cql.InsertAddressAnalytics, chainTS(i, 0), "in-flight", i, int64(i), int64(-i))
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("concurrent write: %v", err)
		}
	}
	if r := retries.Load(); r != 0 {
		t.Errorf("%d retries, want none (no streams exhausted, no timeouts)", r)
	}
	if got := len(n.rows(t, cql.AddressAnalyticsRange, "in-flight", 0, writes)); got != writes {
		t.Errorf("%d rows written, want %d", got, writes)
	}
	obs.mu.Lock()
	defer obs.mu.Unlock()
	if len(obs.all) < writes {
		t.Fatalf("observed %d queries, want >= %d", len(obs.all), writes)
	}
	if most := obs.maxOverlap(); most > limit {
		t.Errorf("%d queries in flight at once, want <= %d", most, limit)
	}
}

func testCanceledContext(t *testing.T, n node) {
	var owner string
	var expires time.Time
	lease := func(ctx context.Context, s *cql.Session) error {
		return s.Scan(ctx, cql.Lease, []any{"nobody"}, &owner, &expires)
	}
	check := func(what string, err error, took time.Duration) {
		t.Helper()
		if cql.Classify(err) != cql.ClassCanceled || !errors.Is(err, context.Canceled) || took > 2*time.Second {
			t.Errorf("%s: %v (class %q) after %v, want canceled promptly", what, err, cql.Classify(err), took)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	check("canceled before the call", lease(ctx, n.s), time.Since(start))

	// Canceled while waiting for an in-flight slot, held by a read whose observer blocks.
	hold := &holdFirst{holding: make(chan struct{}), release: make(chan struct{})}
	s := n.open(t, 1, hold)
	release := hold.release
	done := make(chan error, 1)
	go func() { done <- lease(context.Background(), s) }()
	<-hold.holding
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start = time.Now()
	err := lease(ctx, s)
	took := time.Since(start)
	close(release)
	check("canceled waiting for a slot", err, took)
	if took < 100*time.Millisecond {
		t.Errorf("returned after %v, before the cancel: the slot was not held", took)
	}
	if err := <-done; err != nil && !errors.Is(err, gocql.ErrNotFound) {
		t.Errorf("slot holder: %v", err)
	}
}

// holdFirst blocks the first query it observes (the driver observes a query within its
// attempt, so the query keeps its in-flight slot) until release is closed.
type holdFirst struct {
	once             sync.Once
	holding, release chan struct{}
}

func (h *holdFirst) ObserveQuery(context.Context, gocql.ObservedQuery) {
	h.once.Do(func() {
		close(h.holding)
		<-h.release
	})
}

// testOlderTimestampLoses: writes carry chain-order timestamps, so a replayed (older)
// write or delete never undoes newer state, whatever order they reach the node in.
func testOlderTimestampLoses(t *testing.T, n node) {
	n.write(t, cql.InsertMilestone, chainTS(900, 2), 900, "ms-new", int64(2), []byte("new"))
	n.write(t, cql.InsertMilestone, chainTS(900, 1), 900, "ms-replayed", int64(1), []byte("old"))
	n.expect(t, cql.MilestoneByIndex, []row{{"message_id": "", "milestone_id": "ms-new", "timestamp": int64(2), "payload": []byte("new")}}, 900)

	const tag = "tag-replay"
	n.write(t, cql.InsertTag, chainTS(901, 2), tag, 9, msTime(901), 901, "msg-901", int8(1))
	n.write(t, cql.DeletePendingTag, chainTS(901, 1), tag, 9, msTime(901), 901, "msg-901")
	n.expect(t, cql.TagMessages, []row{{"milestone_index": 901, "ms_timestamp": msTime(901), "message_id": "msg-901",
		"inclusion_state": 1}}, tag, 9)
}
