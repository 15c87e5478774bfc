package analytics_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
)

// testChunk is small so the chain spans several ms_range_id partitions.
const testChunk = 50

// The test chain: 72 milestones a day from 2022-10-01T00:00Z, so 2022-10-01..03 are
// whole days (1-72, 73-144, 145-216) and 2022-10-04 is partial (217-260).
const tip = 260

func simOptions() sim.Options {
	return sim.Options{Seed: 7, Tip: tip, MessagesPerMilestone: 10, MilestoneInterval: 20 * time.Minute}
}

// firstOfDay is the first milestone of the test chain on 2022-10-0N.
func firstOfDay(n int) uint32 { return uint32(72*(n-1) + 1) }

func date(s string) time.Time {
	d, err := analytics.ParseDay(s)
	if err != nil {
		panic(err)
	}
	return d
}

// newStore is a fresh migrated keyspace with the chunk size recorded.
func newStore(t testing.TB) (*store.Store, cql.Config) {
	t.Helper()
	return storetest.New(t, testChunk)
}

// ingestedSim is a fresh store holding the sim chain of simOptions up to stopAt (with the
// analytics rows, see ingestUpTo), its keyspace's config, and the chain.
func ingestedSim(t testing.TB, stopAt uint32) (*store.Store, cql.Config, *sim.Sim) {
	t.Helper()
	st, cfg := newStore(t)
	src := sim.New(simOptions())
	ingestUpTo(t, st, src, stopAt)
	return st, cfg, src
}

// waitFor polls cond until it holds, failing the test after timeout.
func waitFor(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// ingestUpTo runs a pipeline with the analytics rows attached over every milestone up
// to stopAt that has no sync row, and returns its metrics.
func ingestUpTo(t testing.TB, st *store.Store, src *sim.Sim, stopAt uint32) *ingest.Metrics {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	m := ingest.NewMetrics(nil)
	p := ingest.New(src, st, ingest.Config{NodeID: 1, StopAt: stopAt}, m, nil)
	p.AddRows(analytics.Rows)
	if err := p.Run(ctx); err != nil {
		t.Fatalf("ingest up to %d: %v", stopAt, err)
	}
	return m
}

// dump reads a whole (small, test) table as sorted text rows, for before/after
// comparisons that must see every column.
func dump(t testing.TB, st *store.Store, query string) []string {
	t.Helper()
	rows := storetest.Rows(t, st, query)
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = rowText(r)
	}
	slices.Sort(out)
	return out
}

func rowText(r map[string]any) string {
	keys := make([]string, 0, len(r))
	for k := range r {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	s := ""
	for _, k := range keys {
		v := r[k]
		if tm, ok := v.(time.Time); ok {
			v = tm.UTC().Format(time.DateOnly)
		}
		s += fmt.Sprintf("%s=%v ", k, v)
	}
	return s
}

// analyticsTables are every table this package writes, with writetime where a regular
// column exists, so a rewrite with another timestamp would show.
var analyticsTables = []string{
	`SELECT ms_range_id, milestone_index, message_count, transaction_count, transferred_tokens,
		writetime(message_count) AS ts FROM ms_analytics`,
	`SELECT address, milestone_index, sent_tokens, recv_tokens, writetime(sent_tokens) AS ts FROM address_analytics`,
	`SELECT date, variant, metric, value FROM metrics_cache`,
	`SELECT date, start_ms, end_ms FROM date_cache`,
	`SELECT year, date, total_addresses, send_addresses, recv_addresses FROM daily_analytics`,
	`SELECT family, ms_range_id, milestone_index, milestone_timestamp, figures, writetime(figures) AS ts FROM milestone_families`,
	`SELECT family, year, date, figures FROM daily_families`,
}

func dumpAll(t testing.TB, st *store.Store) [][]string {
	var out [][]string
	for _, q := range analyticsTables {
		out = append(out, dump(t, st, q))
	}
	return out
}
