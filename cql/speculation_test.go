package cql_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// executions counts the driver's executions per statement text and keeps the errors
// other than a cancel (the losers of a speculation are canceled once one answers).
type executions struct {
	mu   sync.Mutex
	n    map[string]int
	errs []error
}

func (e *executions) ObserveQuery(_ context.Context, q gocql.ObservedQuery) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.n[q.Statement]++
	if q.Err != nil && !errors.Is(q.Err, context.Canceled) {
		e.errs = append(e.errs, q.Err)
	}
}

func (e *executions) of(st *cql.Statement) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.n[st.CQL]
}

// testReadSpeculation: with a speculation wait of 1µs every select is also sent on
// at once; on one node every execution goes to it (the plan gives it again), and Scan,
// MapRows and MapPage answer as without speculation. Writes are sent once.
func testReadSpeculation(t *testing.T, n node) {
	const key, rows, reads = "speculation", 10, 20
	cfg := n.cfg
	cfg.ReadSpeculation = time.Microsecond
	obs := &executions{n: map[string]int{}}
	s := testcontainers.ObservedSession(t, cfg, obs)
	ctx := context.Background()

	for i := range rows {
		if err := s.Write(ctx, cql.InsertAddressAnalytics, chainTS(i, 0), key, i, int64(i), int64(-i)); err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
	}
	if got := obs.of(cql.InsertAddressAnalytics); got != rows {
		t.Errorf("%d executions of %d writes: a write must go out once", got, rows)
	}
	n.write(t, cql.InsertMilestone, chainTS(960, 0), 960, "ms-id-960", msTime(960).Unix(), []byte("speculated"))

	for range reads {
		var id string
		var ts int64
		var msg string
		var payload []byte
		if err := s.Scan(ctx, cql.MilestoneByIndex, []any{960}, &msg, &id, &ts, &payload); err != nil {
			t.Fatalf("Scan: %v", err)
		}
		if id != "ms-id-960" || string(payload) != "speculated" {
			t.Fatalf("Scan: milestone %q payload %q", id, payload)
		}
		all, err := cql.MapRows(ctx, s, cql.AddressAnalyticsRange, []any{key, 0, rows})
		if err != nil || len(all) != rows {
			t.Fatalf("MapRows: %d rows, %v; want %d", len(all), err, rows)
		}
		page, next, err := cql.MapPage(ctx, s, cql.AddressAnalyticsRange, []any{key, 0, rows}, 3, nil)
		if err != nil || len(page) != 3 || len(next) == 0 {
			t.Fatalf("MapPage: %d rows, next %x, %v; want 3 and a next page", len(page), next, err)
		}
	}
	if got := obs.of(cql.MilestoneByIndex); got <= reads {
		t.Errorf("%d executions of %d reads: none speculated", got, reads)
	}
	obs.mu.Lock()
	defer obs.mu.Unlock()
	for _, err := range obs.errs {
		t.Errorf("execution failed: %v", err)
	}
}
