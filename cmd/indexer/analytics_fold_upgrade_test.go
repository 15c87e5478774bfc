package main

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
)

// TestRunFoldsMilestonesIndexedWithoutDeltas: the real snapshot at 17338 bootstrapped and
// 17339-17340 indexed by `indexer run -analytics=false`, so without delta rows, as an
// indexer from before the families left them. The next `indexer run -stop-at 17340`,
// which has nothing left to ingest, folds at its end: the fold writes the two milestones'
// analytics rows from the milestones read back and folds them, and the recount equals
// the fold at 17338-17340. `indexer verify` names the missing analytics rows before
// (clean with -analytics=false) and is clean after.
func TestRunFoldsMilestonesIndexedWithoutDeltas(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	st, cfg := bootstrappedAt17338(t, ctx)
	fake, _ := nodetest.Start(t)
	run := slices.Concat([]string{"-source", "node", "-node-url", fake.URL(), "-stop-at", "17340", "-follow=false",
		"-ops-addr", ""}, dbArgs(cfg))
	must(t, cmdRun(ctx, append(run, "-analytics=false")))
	for _, m := range []uint32{17339, 17340} {
		if _, ok, err := st.ReadLedgerDelta(ctx, m); err != nil || ok {
			t.Fatalf("delta row of %d after a run without analytics: %t, %v", m, ok, err)
		}
	}
	if _, ok, err := st.LedgerFamilies(ctx); err != nil || ok {
		t.Fatalf("fold state after a run without analytics: %t, %v", ok, err)
	}
	if err := cmdVerify(ctx, append(dbArgs(cfg), "-analytics=false")); err != nil {
		t.Errorf("indexer verify -analytics=false after a run without analytics: %v", err)
	}
	if err := cmdVerify(ctx, dbArgs(cfg)); !errors.Is(err, errDiscrepancies) {
		t.Errorf("indexer verify after a run without analytics: %v, want the missing analytics rows named", err)
	}

	must(t, cmdRun(ctx, run))
	state, ok, err := st.LedgerFamilies(ctx)
	if err != nil || !ok || state.Watermark != 17340 || state.Base != 17338 || !state.Complete {
		t.Fatalf("fold state after the run: %+v, %t, %v; want base 17338, watermark 17340, complete", state, ok, err)
	}
	for _, m := range []uint32{17338, 17339, 17340} {
		checkRecountEqualsFold(t, ctx, st, m)
	}
	for _, m := range []uint32{17339, 17340} {
		if _, ok, err := st.MilestoneFamily(ctx, "block_activity", m); err != nil || !ok {
			t.Errorf("block_activity of %d, written with the delta row: %t, %v", m, ok, err)
		}
	}
	if err := cmdVerify(ctx, dbArgs(cfg)); err != nil {
		t.Errorf("indexer verify, analytics rows included, after the fold wrote them: %v", err)
	}
	if err := checkFold(ctx, st); err != nil {
		t.Errorf("indexer analytics -ledger's check: %v", err)
	}
}

// TestImportFoldsAtItsEnd: `indexer import` of an archive of sim milestones 2..12 into a
// new keyspace folds the ledger families at its end, up to the archive's last milestone
// (partial: the keyspace has no snapshot bootstrap).
func TestImportFoldsAtItsEnd(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	st, cfg := storetest.NewOrSkip(t, 0)
	_, simCfg := storetest.New(t, 0)
	mustRun(t, ctx, slices.Concat([]string{"-source", "sim", "-sim-backfill", "12", "-sim-every", "0"}, gapSimArgs, commonArgs),
		simCfg, "-stop-at", "12", "-follow=false")
	archive := filepath.Join(t.TempDir(), "chain.sdxa.gz")
	must(t, cmdExport(ctx, slices.Concat([]string{"-from", "2", "-to", "12", "-out", archive}, dbArgs(simCfg))))
	must(t, cmdImport(ctx, append(dbArgs(cfg), archive)))
	state, ok, err := st.LedgerFamilies(ctx)
	if err != nil || !ok || state.Base != 1 || state.Watermark != 12 || state.Complete {
		t.Fatalf("fold state after the import: %+v, %t, %v; want base 1, watermark 12, partial", state, ok, err)
	}
}
