package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// `indexer run -source node` without -start-at on a node pruned as Hornet prunes starts at
// the node's pruning index + 1 and indexes the real milestones from there, though the
// node answers 404 for every block below it.
func TestRunFromAPrunedNode(t *testing.T) {
	testcontainers.SkipShort(t)
	fake, _ := nodetest.Start(t)
	for _, pruning := range []uint32{17338, 17339} {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if err := fake.SetPruningIndex(pruning); err != nil {
			t.Fatal(err)
		}
		st, cfg := storetest.New(t, 0)
		err := cmdRun(ctx, []string{"-source", "node", "-node-url", fake.URL(), "-stop-at", "17340", "-follow=false",
			"-ops-addr", "", "-analytics-ledger=false", "-keyspace", cfg.Keyspace, "-cql-hosts", strings.Join(cfg.Hosts, ",")})
		if err != nil {
			t.Fatalf("pruned at %d: %v", pruning, err)
		}
		s, err := st.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if s.Oldest != pruning+1 || s.Newest != 17340 || len(s.Gaps) != 0 {
			t.Errorf("pruned at %d: synced %d..%d, gaps %v; want %d..17340", pruning, s.Oldest, s.Newest, s.Gaps, pruning+1)
		}
	}
}
