package ingest_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
)

// testChunk is small so a few hundred milestones span several ms_range_id partitions.
const testChunk = 50

// newStore is a fresh migrated keyspace with the chunk size recorded.
func newStore(t testing.TB) (*store.Store, cql.Config) {
	t.Helper()
	return storetest.New(t, testChunk)
}

// newStoreOrSkip is newStore for a test that runs only with a node: under -short it
// skips the test instead.
func newStoreOrSkip(t testing.TB) (*store.Store, cql.Config) {
	t.Helper()
	return storetest.NewOrSkip(t, testChunk)
}

// simOptions is the chain every ingest test uses unless it says otherwise: 20-minute
// milestones so a few hundred of them span several UTC days.
func simOptions(tip uint32) sim.Options {
	return sim.Options{Seed: 42, Tip: tip, MessagesPerMilestone: 12, MilestoneInterval: 20 * time.Minute}
}

// ingestAll runs a pipeline over milestones 1..tip and fails the test on error.
func ingestAll(t testing.TB, st *store.Store, src *sim.Sim, tip uint32, m *ingest.Metrics, extra ...ingest.RowsFunc) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	p := ingest.New(src, st, ingest.Config{NodeID: 1, StopAt: tip}, m, nil)
	for _, rows := range extra {
		p.AddRows(rows)
	}
	if err := p.Run(ctx); err != nil {
		t.Fatalf("ingest 1..%d: %v", tip, err)
	}
}

func deleteSync(st *store.Store, index uint32) error { return st.Unsync(context.Background(), index) }

func countMessagesOf(t testing.TB, st *store.Store, index uint32) int {
	t.Helper()
	rows, err := st.MilestoneMessages(context.Background(), index)
	if err != nil {
		t.Fatal(err)
	}
	return len(rows)
}

// simSource is the chain of simOptions(tip), as the indexer binary's -source sim builds it.
func simSource(tip uint32) *sim.Sim { return sim.New(simOptions(tip)) }

func itoa(v int) string { return strconv.Itoa(v) }
