package main

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/source/node"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testsupport/realnettest"
)

// TestLedgerFamiliesPartialFoldStopsAtGap: without a snapshot bootstrap the fold starts
// from zero before the oldest synced milestone (partial), stops before a milestone that
// is not synced and goes on once it is (run's fold loop); its ledger_outputs figures are
// what the milestones' ledger updates (milestone_ledger_updates) created less what they
// consumed.
func TestLedgerFamiliesPartialFoldStopsAtGap(t *testing.T) {
	st, _ := storetest.NewOrSkip(t, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	quiet := slog.New(slog.DiscardHandler)
	fake, _ := nodetest.Start(t)
	src := node.Config{URL: fake.URL(), Created: st}
	if err := realnettest.Ingest(t, st, src, ingest.Config{Start: 17339, StopAt: 17340}, quiet); err != nil {
		t.Fatal(err)
	}
	if err := st.Unsync(ctx, 17340); err != nil {
		t.Fatal(err)
	}
	fold := analytics.LedgerFold{Store: st, Owner: "test"}
	res, err := fold.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if s := res.State; s.Base != 17338 || s.Watermark != 17339 || s.Complete {
		t.Fatalf("fold with 17340 unsynced: %+v, want base 17338, watermark 17339, partial", s)
	}
	if err := realnettest.Ingest(t, st, src, ingest.Config{Start: 17340, StopAt: 17340}, quiet); err != nil {
		t.Fatal(err)
	}
	waitForFold(t, ctx, fold, 17340)
	want := updateTotals(t, ctx, st, 17339, 17340)
	p, ok, err := st.MilestoneFamily(ctx, analytics.FamilyLedgerOutputs, 17340)
	if err != nil || !ok {
		t.Fatalf("ledger_outputs at 17340: %t, %v", ok, err)
	}
	for k, v := range want {
		if p.Figures[k] != v {
			t.Errorf("ledger_outputs.%s at 17340: %d, the ledger updates give %d", k, p.Figures[k], v)
		}
	}
	if err := checkFold(ctx, st); err != nil {
		t.Errorf("a partial fold's check is no failure: %v", err)
	}
}

// waitForFold runs the fold loop of `indexer run` until the fold's watermark reaches
// index.
func waitForFold(t *testing.T, ctx context.Context, fold analytics.LedgerFold, index uint32) {
	t.Helper()
	loopCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		analytics.FoldSchedule{Fold: fold, Every: 20 * time.Millisecond, Log: slog.New(slog.DiscardHandler)}.Loop(loopCtx)
	}()
	defer func() { stop(); <-done }()
	for ctx.Err() == nil {
		s, ok, err := fold.Store.LedgerFamilies(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if ok && s.Watermark >= index {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the fold loop did not reach %d", index)
}

// updateTotals sums the outputs milestones from..to created less those they consumed,
// per kind, as ledger_outputs names them.
func updateTotals(t *testing.T, ctx context.Context, st *store.Store, from, to uint32) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for m := from; m <= to; m++ {
		updates, err := st.MilestoneUpdates(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range updates {
			sign := int64(1)
			if u.IsSpent {
				sign = -1
			}
			out[u.Kind+".count"] += sign
			out[u.Kind+".amount"] += sign * u.Amount
		}
	}
	return out
}
