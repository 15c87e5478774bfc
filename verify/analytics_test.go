package verify_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testsupport/ingesttest"
	"github.com/stardust-indexer/stardust-indexer/verify"
)

// TestAnalyticsRowsFoundAndRepaired: a chain ingested with the analytics rows verifies
// clean with Options.Rows = analytics.Rows; damaged analytics rows (a family's figures,
// a milestone's counts, a ledger delta row, an address's tokens, a date's set member)
// are each named and repaired, and verify is clean afterwards; a milestone that lost a
// message is re-ingested and its analytics rows left alone.
func TestAnalyticsRowsFoundAndRepaired(t *testing.T) {
	const n = 12
	st, _ := storetest.New(t, chunk)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	p := ingest.New(sim.New(sim.Options{Seed: 13, Tip: n + 1}), st, ingest.Config{StopAt: n}, nil, ingesttest.Quiet)
	p.AddRows(analytics.Rows)
	if err := p.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if sum, found := runRows(t, st, n, false); len(found) > 0 || sum.Rows < 20*n {
		t.Fatalf("not clean before the damage (%d rows read): %+v", sum.Rows, found)
	}
	q := func(format string, args ...any) []map[string]any {
		return storetest.Rows(t, st, fmt.Sprintf(format, args...))
	}
	addr := q("SELECT address, milestone_index FROM address_analytics LIMIT 1")
	member := q("SELECT date, variant, metric, value FROM metrics_cache LIMIT 1")
	if len(addr) != 1 || len(member) != 1 {
		t.Fatalf("sim chain too small: %d address rows, %d metric rows", len(addr), len(member))
	}
	a, m := addr[0], member[0]
	day := m["date"].(time.Time).Format("2006-01-02")
	lost := q("SELECT message_id FROM messages_by_milestone WHERE milestone_index = 9 LIMIT 1")[0]["message_id"]
	damages := []damage{
		{cql: fmt.Sprintf("UPDATE milestone_families SET figures = {'milestone_count': 5} WHERE family = 'block_activity' "+
			"AND ms_range_id = %d AND milestone_index = 5", st.RangeID(5)),
			kind: verify.KindDiffers, table: "milestone_families", key: map[string]any{"milestone_index": 5}, col: "figures"},
		{cql: fmt.Sprintf("UPDATE ms_analytics SET message_count = 999 WHERE ms_range_id = %d AND milestone_index = 7", st.RangeID(7)),
			kind: verify.KindDiffers, table: "ms_analytics", key: map[string]any{"milestone_index": 7}, col: "message_count"},
		{cql: fmt.Sprintf("DELETE FROM ledger_family_deltas WHERE ms_range_id = %d AND milestone_index = 11", st.RangeID(11)),
			kind: verify.KindMissing, table: "ledger_family_deltas", key: map[string]any{"milestone_index": 11}},
		{cql: fmt.Sprintf("DELETE FROM address_analytics WHERE address = '%s' AND milestone_index = %d", a["address"], a["milestone_index"]),
			kind: verify.KindMissing, table: "address_analytics", key: map[string]any{"address": a["address"]}},
		{cql: fmt.Sprintf("DELETE FROM metrics_cache WHERE date = '%s' AND variant = '%s' AND metric = '%s' AND value = '%s'",
			day, m["variant"], m["metric"], m["value"]),
			kind: verify.KindMissing, table: "metrics_cache", key: map[string]any{"value": m["value"]}},
		// Milestone 9 loses a message: it is re-ingested, and its analytics rows, which
		// would be summed over part of its cone, are left alone.
		{cql: fmt.Sprintf("DELETE FROM messages WHERE message_id = '%s'", lost),
			kind: verify.KindMissing, table: "messages", key: map[string]any{"message_id": lost}},
	}
	for _, d := range damages {
		q("%s", d.cql)
	}

	sum, found := runRows(t, st, n, true)
	for _, d := range damages {
		if !foundDamage(found, d) {
			t.Errorf("not found: %s %s %v (%s)", d.kind, d.table, d.key, d.cql)
		}
	}
	for _, f := range found {
		if f.Table == "ledger_family_deltas" && !strings.Contains(f.Repair, "indexer analytics -from 11 -to 11") {
			t.Errorf("a ledger delta's repair does not say how to refold: %+v", f)
		}
		if f.Milestone == 9 && analyticsTables[f.Table] {
			t.Errorf("milestone 9 is re-ingested, yet verify reports and repairs its analytics rows: %+v", f)
		}
	}
	if len(sum.Reingest) != 1 || sum.Reingest[0] != 9 || sum.UnderivedAnalytics != 1 {
		t.Errorf("re-ingestion %v, underived analytics %d; want [9] and 1", sum.Reingest, sum.UnderivedAnalytics)
	}
	if _, found := runRows(t, st, n, false); len(found) > 0 {
		t.Errorf("after repair: %+v", found)
	}
}

// TestAnalyticsRowsOfAChainIndexedWithout: on a chain ingested without analytics rows,
// verify with Options.Rows names every milestone's ms_analytics row missing; without
// Options.Rows it is clean.
func TestAnalyticsRowsOfAChainIndexedWithout(t *testing.T) {
	const n = 6
	st := ingested(t, n)
	_, found := runRows(t, st, n, false)
	missing := map[uint32]bool{}
	for _, f := range found {
		if f.Table == "ms_analytics" && f.Kind == verify.KindMissing {
			missing[f.Milestone] = true
		}
	}
	if len(missing) != n {
		t.Errorf("ms_analytics missing for %d milestones, want all %d: %+v", len(missing), n, found)
	}
	if _, found := run(t, st, 1, n, false); len(found) > 0 {
		t.Errorf("without Options.Rows: %+v", found)
	}
}

// analyticsTables are the tables analytics.Rows writes.
var analyticsTables = map[string]bool{"ms_analytics": true, "address_analytics": true, "metrics_cache": true,
	"milestone_families": true, "ledger_family_deltas": true}

// runRows verifies 1..n with the analytics rows and returns what it found.
func runRows(t *testing.T, st *store.Store, n uint32, repair bool) (verify.Summary, []verify.Discrepancy) {
	t.Helper()
	return runWith(t, st, verify.Options{From: 1, To: n, Repair: repair, Rows: analytics.Rows})
}
