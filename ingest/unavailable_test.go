package ingest_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/stardust-indexer/stardust-indexer/archive"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testsupport/archivetest"
)

// prunedSource is a source whose tip the test moves and which refuses milestones
// [from, to] as not held, as a pruned node does.
type prunedSource struct {
	source.Source
	tip      atomic.Uint32
	from, to uint32
	mu       sync.Mutex
	asked    map[uint32]int
}

func (s *prunedSource) Latest(context.Context) (uint32, error) { return s.tip.Load(), nil }

func (s *prunedSource) Milestone(ctx context.Context, index uint32) (*chain.VerifiedMilestone, error) {
	s.mu.Lock()
	s.asked[index]++
	s.mu.Unlock()
	if index >= s.from && index <= s.to {
		return nil, source.Refuse(fmt.Errorf("milestone %d: %w", index, source.ErrNotHeld))
	}
	return s.Source.Milestone(ctx, index)
}

// TestUnavailableMilestones: milestones the source does not hold are recorded, skipped
// and counted while the pipeline keeps following the tip; an import of an archive fills
// them and clears the record.
func TestUnavailableMilestones(t *testing.T) {
	st, _ := newStoreOrSkip(t)
	const last = 30
	want := []store.Range{{From: 5, To: 7}}
	src := &prunedSource{Source: sim.New(simOptions(last)), from: 5, to: 7, asked: map[uint32]int{}}
	src.tip.Store(20)
	m := ingest.NewMetrics(nil)
	p := ingest.New(src, st, ingest.Config{NodeID: 1, Follow: true, PollInterval: 50 * time.Millisecond,
		GapCheck: 100 * time.Millisecond}, m, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	stopped := make(chan error, 1)
	go func() { stopped <- p.Run(ctx) }()

	awaitSync(t, st, stopped, want, 20)
	src.mu.Lock()
	for i := uint32(1); i <= 20; i++ { // the range goes on past what is not held: nothing is fetched twice
		if src.asked[i] != 1 {
			t.Errorf("milestone %d asked of the source %d times before the retry; want once", i, src.asked[i])
		}
	}
	src.mu.Unlock()
	src.tip.Store(last)
	awaitSync(t, st, stopped, want, last) // the tip is followed past the gap
	if got := testutil.ToFloat64(m.Unavailable); got != 3 {
		t.Fatalf("indexer_unavailable_milestones = %v, want 3", got)
	}

	importArchive(t, st, exportOf(t, 5, 7, last))
	awaitSync(t, st, stopped, nil, last)
	storetest.AssertNoGaps(t, st, 1, last)
	for testutil.ToFloat64(m.Unavailable) != 0 { // the follower rereads the record at its next gap check
		waitOrStop(t, stopped)
	}
	cancel()
	if err := <-stopped; err != nil && ctx.Err() == nil {
		t.Fatal(err)
	}
}

// awaitSync waits until the store records unavailable as not held and newest is synced.
func awaitSync(t *testing.T, st *store.Store, stopped <-chan error, unavailable []store.Range, newest uint32) {
	t.Helper()
	ctx := context.Background()
	for {
		rs, err := st.Unavailable(ctx)
		if err != nil {
			t.Fatal(err)
		}
		synced, err := st.Synced(ctx, newest, newest)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := synced[newest]; ok && slices.Equal(rs, unavailable) {
			return
		}
		waitOrStop(t, stopped)
	}
}

func waitOrStop(t *testing.T, stopped <-chan error) {
	t.Helper()
	select {
	case err := <-stopped:
		t.Fatalf("pipeline stopped: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
}

// exportOf indexes milestones 1..to of the sim chain up to tip in a keyspace of their
// own and exports from..to as an archive, as `indexer export` does.
func exportOf(t *testing.T, from, to, tip uint32) string {
	t.Helper()
	orig, _ := newStore(t)
	ingestAll(t, orig, sim.New(simOptions(tip)), to, nil)
	return archivetest.ExportFile(t, orig, from, to)
}

// importArchive runs the pipeline over an archive as `indexer import` does.
func importArchive(t *testing.T, st *store.Store, path string) {
	t.Helper()
	keys := sim.Network().Keys
	src, err := archive.Open([]string{path}, &keys)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	from, to := src.Range()
	p := ingest.New(src, st, ingest.Config{NodeID: 1, LoggedBy: 7, Start: from, StopAt: to}, nil, nil)
	if err := p.Run(context.Background()); err != nil {
		t.Fatalf("import %d..%d: %v", from, to, err)
	}
}
