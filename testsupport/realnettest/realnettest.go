// Package realnettest puts the real-network data (Shimmer milestones 17339-17340, served
// by the fake Hornet node of nodetest) into a test's store: ingested as `indexer run
// -source node` ingests it, or written in part, as an unfinished write leaves it.
package realnettest

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/source/node"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Ingest runs the pipeline configured as cfg, with the analytics rows, over a node
// source configured as src, and returns how the run ended; it has two minutes.
func Ingest(t testing.TB, st *store.Store, src node.Config, cfg ingest.Config, log *slog.Logger) error {
	t.Helper()
	s := Source(t, src)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p := ingest.New(s, st, cfg, nil, log)
	p.AddRows(analytics.Rows)
	return p.Run(ctx)
}

// Source is a node source configured as cfg.
func Source(t testing.TB, cfg node.Config) *node.Source {
	t.Helper()
	src, err := node.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// WriteMilestone records the network of src in st and writes the rows of milestone
// 17339 that keep selects, as the indexer writes them starting at 17339, and returns
// the milestone.
func WriteMilestone(t testing.TB, st *store.Store, src *node.Source, keep func(store.Write) bool) *chain.ConfirmedMilestone {
	t.Helper()
	ctx := context.Background()
	net, err := src.Network(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.EnsureNetwork(ctx, net, "test"); err != nil {
		t.Fatal(err)
	}
	vm, err := src.Milestone(ctx, 17339)
	if err != nil {
		t.Fatal(err)
	}
	cm := vm.Confirmed()
	var writes []store.Write
	for _, w := range st.MilestoneWrites(cm, 17339, nil).Writes {
		if keep(w) {
			writes = append(writes, w)
		}
	}
	if err := st.Apply(ctx, writes, 8); err != nil {
		t.Fatal(err)
	}
	return cm
}
