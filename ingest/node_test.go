package ingest_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/source/node"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Faults of a real node while indexing Shimmer milestones 17339-17340 from the fake node:
// each run ends with the same data as a run without faults, or refuses with nothing of
// the refused milestone written.
func TestNodeFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("needs a Cassandra node (-short)")
	}
	fake, _ := nodetest.Start(t)
	clean, cleanCfg := newStore(t)
	if err := runFromNode(t, clean, fake, 6); err != nil {
		t.Fatal(err)
	}
	t.Run("500s then recovery", func(t *testing.T) {
		st, cfg := newStore(t)
		n, _ := nodetest.Start(t)
		n.FailNext(4, "/api/core/v2/blocks/")
		n.FailNext(3, "/api/core/v2/milestones/")
		n.FailNext(2, "/api/core/v2/outputs/")
		if err := runFromNode(t, st, n, 6); err != nil {
			t.Fatal(err)
		}
		assertSameData(t, cfg, cleanCfg)
	})
	t.Run("block bytes not hashing to its ID", testCorruptBlock)
	t.Run("node dies mid-milestone", func(t *testing.T) {
		st, cfg := newStore(t)
		testNodeDies(t, st)
		assertSameData(t, cfg, cleanCfg)
	})
}

// runFromNode ingests the data's milestones from n, with analytics rows.
func runFromNode(t *testing.T, st *store.Store, n *nodetest.Server, attempts int) error {
	t.Helper()
	src, err := node.New(node.Config{URL: n.URL(), Attempts: attempts})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p := ingest.New(src, st, ingest.Config{NodeID: 1, Start: 17339, StopAt: 17340}, nil, nil)
	p.AddRows(analytics.Rows)
	return p.Run(ctx)
}

// A block whose bytes do not hash to its ID stops the indexer with a refusal naming it;
// the milestone before is whole and synced, nothing of the refused one is written.
func testCorruptBlock(t *testing.T) {
	st, _ := newStore(t)
	n, set := nodetest.Start(t)
	bad := set.Milestones[17340].Cone[7]
	n.CorruptBlock(bad.ID, true)
	err := runFromNode(t, st, n, 6)
	if !errors.As(err, new(*source.Refusal)) {
		t.Fatalf("err = %v, want a refusal", err)
	}
	assertNoGaps(t, st, 17339, 17339)
	for _, b := range set.Milestones[17340].Cone {
		if raw, err := st.MessageRaw(context.Background(), chain.MessageID(b.ID).String()); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("block %x of the refused milestone was written (%d bytes, %v)", b.ID, len(raw), err)
		}
	}
	if _, err := st.Milestone(context.Background(), 17340); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("refused milestone 17340 has a milestones row (%v)", err)
	}
}

// A node that dies in the middle of milestone 17340 pauses the indexer; milestone 17340
// has no sync row while it is down, and once the node is back the indexer resumes.
func testNodeDies(t *testing.T, st *store.Store) {
	n, set := nodetest.Start(t)
	n.DieAfter(60) // 17339 takes about 100 requests: it dies inside 17339's walk or 17340's
	done := make(chan error, 1)
	go func() { done <- runFromNode(t, st, n, 2) }()
	deadline := time.Now().Add(30 * time.Second)
	for n.Count(nodetest.RouteInfo) < 3 && time.Now().Before(deadline) { // the paused pipeline keeps asking
		time.Sleep(100 * time.Millisecond)
	}
	synced, err := st.Synced(context.Background(), 17339, 17340)
	if err != nil {
		t.Fatal(err)
	}
	for index := range synced {
		if countMessagesOf(t, st, index) != len(set.Milestones[index].Cone) {
			t.Fatalf("milestone %d has a sync row before all its messages", index)
		}
	}
	if len(synced) == 2 {
		t.Fatal("both milestones synced while the node was dead")
	}
	n.Revive()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	assertNoGaps(t, st, 17339, 17340)
}
