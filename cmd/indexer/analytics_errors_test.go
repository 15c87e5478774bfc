package main

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// TestFailingFoldDoesNotStopIngest: the fold's state names a base at 17338 whose figures
// were never written, so every fold fails. `indexer run` following the fake node still
// ingests 17339-17340 while indexer_analytics_errors_total{job="fold"} counts the fold's
// failures, tried again after a backoff; a run that ends by itself at 17340 ends well
// after its final fold failed too.
func TestFailingFoldDoesNotStopIngest(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	st, cfg := bootstrappedAt17338(t, ctx)
	broken := store.LedgerFamiliesState{Base: 17338, Watermark: 17338, Complete: true}
	must(t, st.AdvanceLedgerFamilies(ctx, broken, "test"))
	fake, _ := nodetest.Start(t)
	args := []string{"-source", "node", "-node-url", fake.URL(), "-analytics-fold-every", "20ms", "-analytics-retry", "20ms"}
	r := follow(t, ctx, args, cfg)
	const failures = `indexer_analytics_errors_total{job="fold"}`
	await(t, "17340 synced and two fold failures counted", time.Minute, r.stopped, func() bool {
		n, ok := gauge(r.ops, failures)
		return indexerStatus(t, ctx, cfg).Newest == 17340 && ok && n >= 2
	})
	r.end(t)

	must(t, st.Unsync(ctx, 17340))
	ended := slices.Concat(args, []string{"-start-at", "17340", "-stop-at", "17340", "-follow=false", "-ops-addr", ""}, dbArgs(cfg))
	if err := cmdRun(ctx, ended); err != nil {
		t.Fatalf("indexer run -stop-at 17340 with a failing fold: %v, want it to end well", err)
	}
	if s := indexerStatus(t, ctx, cfg); s.Newest != 17340 {
		t.Fatalf("newest synced %d after the second run, want 17340", s.Newest)
	}
	if state, _, err := st.LedgerFamilies(ctx); err != nil || state.Watermark != 17338 {
		t.Fatalf("fold state %+v (%v): the fold cannot have moved", state, err)
	}
}
