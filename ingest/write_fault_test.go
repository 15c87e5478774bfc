package ingest_test

import (
	"context"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/internal/logbuf"
	"github.com/stardust-indexer/stardust-indexer/migrations"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
)

// TestFailedWritesLeaveNoSyncRow makes the database refuse one milestone's writes (the
// receipts table, which only milestone 7 writes, is dropped) while the pipeline writes
// milestones 6-10 one at a time: milestone 6 is synced, 7 has no sync row while its
// writes fail, and once the table is back the pipeline's next attempt writes 7-10 whole,
// as a clean keyspace holds them.
func TestFailedWritesLeaveNoSyncRow(t *testing.T) {
	const tip, before, failing = 10, 5, 7
	opts := simOptions(tip)
	opts.Receipts = map[uint32]uint32{failing: 5000}
	clean, cleanCfg := newStore(t)
	ingestAll(t, clean, sim.New(opts), tip, nil)
	st, cfg := newStore(t)
	ingestAll(t, st, sim.New(opts), before, nil)

	storetest.Rows(t, st, "DROP TABLE receipts")
	log := &logbuf.Buffer{}
	p := ingest.New(sim.New(opts), st, ingest.Config{NodeID: 1, StopAt: tip, Window: 1},
		ingest.NewMetrics(nil), slog.New(slog.NewTextHandler(log, nil)))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()

	paused := await(t, log, done, "ingest paused")
	if !strings.Contains(paused, "milestone 7:") || !strings.Contains(paused, "receipts") ||
		strings.Contains(paused, "sync row") {
		t.Fatalf("paused on %q, want milestone 7's writes to receipts refused", paused)
	}
	t.Logf("paused: %s", paused)
	synced, err := st.Synced(context.Background(), 1, tip)
	if err != nil {
		t.Fatal(err)
	}
	if got := slices.Sorted(maps.Keys(synced)); !slices.Equal(got, []uint32{1, 2, 3, 4, 5, 6}) {
		t.Fatalf("while milestone %d's writes fail, synced %v: want 1-6 (no sync row without its rows)", failing, got)
	}

	recreateTable(t, st, "000011_receipts")
	if err := <-done; err != nil {
		t.Fatalf("the run after the table came back: %v", err)
	}
	storetest.AssertNoGaps(t, st, 1, tip)
	if got := storetest.Rows(t, st, "SELECT milestone_index FROM receipts"); len(got) != 1 || got[0]["milestone_index"] != failing {
		t.Errorf("receipts rows %v, want milestone %d's", got, failing)
	}
	assertSameData(t, cfg, cleanCfg)
}

// recreateTable runs a migration's statements again (CREATE TABLE IF NOT EXISTS).
func recreateTable(t *testing.T, st *store.Store, migration string) {
	t.Helper()
	stmts, err := migrations.FileStatements(migration + ".cql")
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range stmts {
		storetest.Rows(t, st, stmt)
	}
}

// await returns the first line of b holding msg, failing the test if the run ends first
// or none comes within a minute.
func await(t *testing.T, b *logbuf.Buffer, done <-chan error, msg string) string {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		text := b.String()
		for _, line := range strings.Split(text, "\n") {
			if strings.Contains(line, msg) {
				return line
			}
		}
		select {
		case err := <-done:
			t.Fatalf("the run ended (%v) before the log said %q:\n%s", err, msg, text)
		case <-deadline:
			t.Fatalf("no %q in the log within a minute:\n%s", msg, text)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
