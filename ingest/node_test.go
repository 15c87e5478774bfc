package ingest_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/source/node"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testsupport/realnettest"
)

// Faults of a real node while indexing Shimmer milestones 17339-17340 from the fake node:
// each run ends with the same data as a run without faults, or refuses with nothing of
// the refused milestone written.
func TestNodeFaults(t *testing.T) {
	_, cleanCfg, _ := cleanRun(t)
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
	t.Run("cone over the cap", testConeOverCap)
	t.Run("node dies mid-milestone", func(t *testing.T) {
		st, cfg := newStore(t)
		testNodeDies(t, st)
		assertSameData(t, cfg, cleanCfg)
	})
}

// runFromNode ingests the data's milestones from n, with analytics rows.
func runFromNode(t *testing.T, st *store.Store, n *nodetest.Server, attempts int) error {
	t.Helper()
	return runFromNodeWith(t, st, node.Config{URL: n.URL(), Attempts: attempts})
}

// cleanRun is a keyspace indexed by a run over 17339-17340 from a fake node without
// faults, the tables a run with faults must end with, and the data the node serves;
// with -short it skips the test.
func cleanRun(t *testing.T) (*store.Store, cql.Config, *realdata.Set) {
	t.Helper()
	clean, cleanCfg := newStoreOrSkip(t)
	fake, set := nodetest.Start(t)
	if err := runFromNode(t, clean, fake, 6); err != nil {
		t.Fatal(err)
	}
	return clean, cleanCfg, set
}

// runFromNodeWith is runFromNode with a source configured as cfg.
func runFromNodeWith(t *testing.T, st *store.Store, cfg node.Config) error {
	t.Helper()
	return realnettest.Ingest(t, st, cfg, ingest.Config{NodeID: 1, Start: 17339, StopAt: 17340}, nil)
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
	storetest.AssertNoGaps(t, st, 17339, 17339)
	assertNothingOf(t, st, 17340)
}

// A cone of more blocks, or more bytes, than the source's caps is refused with
// ErrConeTooLarge, with nothing of it written: 17340's 43 blocks over a cap of 38 blocks
// (17339's, written whole), 17339's 43897 bytes over a cap of 17340's 14457 bytes - 1.
func testConeOverCap(t *testing.T) {
	_, set := nodetest.Start(t)
	c39, c40 := set.Milestones[17339].Cone, set.Milestones[17340].Cone
	if len(c39) >= len(c40) || coneBytes(c39) <= coneBytes(c40) {
		t.Fatalf("the data's cones: %d blocks %d bytes, then %d blocks %d bytes", len(c39), coneBytes(c39), len(c40), coneBytes(c40))
	}
	cases := []struct {
		name    string
		capped  func(*node.Config)
		refused uint32
	}{
		{"blocks", func(c *node.Config) { c.MaxConeBlocks = len(c39) }, 17340},
		{"bytes", func(c *node.Config) { c.MaxConeBytes = int64(coneBytes(c40) - 1) }, 17339},
	}
	for _, tc := range cases {
		st, _ := newStore(t)
		n, _ := nodetest.Start(t)
		cfg := node.Config{URL: n.URL(), Attempts: 2}
		tc.capped(&cfg)
		err := runFromNodeWith(t, st, cfg)
		if !errors.Is(err, node.ErrConeTooLarge) || !errors.As(err, new(*source.Refusal)) {
			t.Fatalf("%s: err = %v, want a refusal with ErrConeTooLarge", tc.name, err)
		}
		if tc.refused == 17340 {
			storetest.AssertNoGaps(t, st, 17339, 17339)
		}
		assertNothingOf(t, st, tc.refused)
	}
}

func coneBytes(cone []realdata.Block) int {
	n := 0
	for _, b := range cone {
		n += len(b.Raw)
	}
	return n
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
	storetest.AssertNoGaps(t, st, 17339, 17340)
}
