package main

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/source/node"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/testsupport/realnettest"
	"github.com/stardust-indexer/stardust-indexer/verify"
)

// TestRecomputeCrashLeavesARefold: the real snapshot at 17338 bootstrapped, 17339-17340
// ingested and folded; then the folded figures and balances of 17339 are spoilt, as a
// fold of wrong deltas leaves them. `indexer verify` names the figures of 17339 and
// 17340 that do not follow from their predecessor and delta row, and the balances of
// 17339 off their chain. A recompute of 17339-17340 that crashes after rewriting the
// rows, before any refold, leaves the refold from 17339 recorded in the fold's state;
// verify still names the figures, saying so; the next fold (as any indexer run's) refolds
// from 17339, after which the recount equals the fold and verify is clean.
func TestRecomputeCrashLeavesARefold(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	st, _ := bootstrappedAt17338(t, ctx)
	fake, _ := nodetest.Start(t)
	quiet := slog.New(slog.DiscardHandler)
	err := realnettest.Ingest(t, st, node.Config{URL: fake.URL(), Created: st}, ingest.Config{Start: 17339, StopAt: 17340}, quiet)
	if err != nil {
		t.Fatal(err)
	}
	fold := analytics.LedgerFold{Store: st, Owner: "test"}
	if _, err := fold.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if found := verifyFolds(t, ctx, st); len(found) > 0 {
		t.Fatalf("verify after the fold: %v", found)
	}

	spoilFold(t, ctx, st, 17339)
	d, _, _ := st.ReadLedgerDelta(ctx, 17339)
	before := verifyFolds(t, ctx, st)
	wantKinds(t, "after the spoilt fold", before, d.Balances)

	crash := errors.New("the recompute dies here")
	err = fold.Recompute(ctx, 17339, 17340, func(i uint32) error {
		if i == 17340 {
			return crash
		}
		return nil
	})
	if !errors.Is(err, crash) {
		t.Fatalf("recompute: %v, want the injected crash", err)
	}
	state, _, err := st.LedgerFamilies(ctx)
	if err != nil || state.RefoldFrom != 17339 || state.Watermark != 17340 {
		t.Fatalf("fold state after the crash: %+v (%v), want a refold from 17339 recorded at watermark 17340", state, err)
	}
	crashed := verifyFolds(t, ctx, st)
	wantKinds(t, "after the crash", crashed, d.Balances)

	res, err := fold.Run(ctx)
	if err != nil || res.From != 17339 || res.To != 17340 {
		t.Fatalf("the next fold: %d-%d, %v; want it to refold 17339-17340", res.From, res.To, err)
	}
	for _, m := range []uint32{17339, 17340} {
		checkRecountEqualsFold(t, ctx, st, m)
	}
	if found := verifyFolds(t, ctx, st); len(found) > 0 {
		t.Errorf("verify after the refold: %v", found)
	}
	if state, _, _ := st.LedgerFamilies(ctx); state.RefoldFrom != 0 || state.Watermark != 17340 {
		t.Errorf("fold state after the refold: %+v, want no refold left at watermark 17340", state)
	}
}

// verifyFolds runs verify over 17339-17340 with the analytics rows and the folded
// families and returns what it found.
func verifyFolds(t *testing.T, ctx context.Context, st *store.Store) []verify.Discrepancy {
	t.Helper()
	var found []verify.Discrepancy
	sum, err := verify.Run(ctx, st, verify.Options{From: 17339, To: 17340, Rows: analytics.Rows, Folds: foldSteps,
		Report: func(d verify.Discrepancy) { found = append(found, d) }})
	if err != nil {
		t.Fatal(err)
	}
	if sum.FoldedMilestones != 2 {
		t.Errorf("verify checked the folded families of %d milestones, want 2", sum.FoldedMilestones)
	}
	return found
}

// wantKinds checks that found names the figures of 17339 and 17340, and balances off
// their chain only of addresses whose balance at 17339 was spoilt (spoilt: 17339's
// changes), at 17339 or at 17340 (which moved them on from the spoilt value), some of
// them at 17339, and nothing else.
func wantKinds(t *testing.T, when string, found []verify.Discrepancy, spoilt map[string]int64) {
	t.Helper()
	var figures []uint32
	at17339 := 0
	for _, d := range found {
		switch a, _ := d.Key["address"].(string); {
		case d.Kind == verify.KindFiguresDiffer:
			figures = append(figures, d.Milestone)
		case d.Kind == verify.KindBalanceChain && spoilt[a] != 0:
			if d.Milestone == 17339 {
				at17339++
			}
		default:
			t.Errorf("%s: unexpected %+v", when, d)
		}
	}
	if !slices.Equal(figures, []uint32{17339, 17340}) || at17339 == 0 {
		t.Errorf("%s: figures named at %v, %d balances off their chain at 17339; want 17339 and 17340, some", when, figures,
			at17339)
	}
}
