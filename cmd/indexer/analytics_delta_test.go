package main

import (
	"context"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/ingest/bootstrap"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
)

// realDelta continues realSnapshot to 17340 as Hornet keeps the pair (delta_snapshot.bin).
const realDelta = "../../source/snapshot/testdata/snapshot_dev_delta_17340"

// TestRunAfterFullAndDeltaBootstrap: the real full snapshot at 17338 bootstrapped with
// the real delta to 17340, then `indexer run -source node -stop-at 17340` (nothing left
// to ingest) folds at its end from the recount at 17340, where the NFT and alias outputs
// the delta's milestones created are found by output ID; `indexer verify` is clean,
// `indexer analytics -ledger` finds recount = fold, and the recount holds the outputs
// and amount the delta's .expected.json gives for 17340.
func TestRunAfterFullAndDeltaBootstrap(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	st, cfg := storetest.NewOrSkip(t, 0)
	quiet := slog.New(slog.DiscardHandler)
	if _, err := bootstrap.Run(ctx, st, bootstrap.Config{Full: realSnapshot + ".bin", Delta: realDelta + ".bin", Node: "test",
		Log: quiet}); err != nil {
		t.Fatal(err)
	}
	runVerifyRecount(t, ctx, st, cfg, 17340)
	c := checkRecountEqualsFold(t, ctx, st, 17340)
	checkStateTotals(t, c, readFacts(t, realDelta+".expected.json"), 17340)
}

// runVerifyRecount runs `indexer run -source node` against the fake node of 17339-17340
// to stopAt, then `indexer verify` and `indexer analytics -ledger`, each of which must
// succeed, and checks the fold reached stopAt from a complete base.
func runVerifyRecount(t *testing.T, ctx context.Context, st *store.Store, cfg cql.Config, stopAt uint32) {
	t.Helper()
	fake, _ := nodetest.Start(t)
	run := slices.Concat([]string{"-source", "node", "-node-url", fake.URL(), "-stop-at", strconv.FormatUint(uint64(stopAt), 10), "-follow=false",
		"-ops-addr", ""}, dbArgs(cfg))
	must(t, cmdRun(ctx, run))
	state, ok, err := st.LedgerFamilies(ctx)
	if err != nil || !ok || state.Watermark != stopAt || !state.Complete {
		t.Fatalf("fold state after the run: %+v, %t, %v; want watermark %d, complete", state, ok, err, stopAt)
	}
	must(t, cmdVerify(ctx, dbArgs(cfg)))
	must(t, cmdAnalytics(ctx, append([]string{"-ledger"}, dbArgs(cfg)...)))
}

// TestExportedDeltaBootstrapsRunsAndRecounts: the real full snapshot at 17338 with
// 17339-17340 ingested from the node, then `indexer export -snapshot full -delta delta
// -at N` writes a delta from the full file's target to N. Each delta, 17340 and 17339,
// with the real full file bootstraps a new keyspace; `indexer run` to 17340 (ingesting
// 17340 after the delta to 17339), `indexer verify` and `indexer analytics -ledger`
// succeed, and the folded figures and balances at 17340 equal the first keyspace's,
// where the fold went from 17338 through the ingested milestones.
func TestExportedDeltaBootstrapsRunsAndRecounts(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	src, srcCfg := bootstrappedAt17338(t, ctx)
	runVerifyRecount(t, ctx, src, srcCfg, 17340)
	want := checkRecountEqualsFold(t, ctx, src, 17340)
	dir := t.TempDir()
	for _, at := range []uint32{17340, 17339} {
		delta := filepath.Join(dir, "delta_"+strconv.Itoa(int(at))+".bin")
		must(t, cmdExport(ctx, append([]string{"-snapshot", realSnapshot + ".bin", "-delta", delta, "-at",
			strconv.Itoa(int(at))}, dbArgs(srcCfg)...)))
		st, cfg := storetest.NewOrSkip(t, 0)
		must(t, cmdBootstrap(ctx, append([]string{"-snapshot", realSnapshot + ".bin", "-delta", delta, "-ops-addr", ""},
			dbArgs(cfg)...)))
		runVerifyRecount(t, ctx, st, cfg, 17340)
		got := checkRecountEqualsFold(t, ctx, st, 17340)
		if !maps.Equal(got.Figures, want.Figures) || !maps.Equal(got.Balances, want.Balances) {
			t.Errorf("delta to %d: the ledger families at 17340 differ from the keyspace that ingested 17339-17340", at)
		}
		if _, err := os.Stat(delta + ".partial"); !os.IsNotExist(err) {
			t.Errorf("a partial file is left: %v", err)
		}
	}
}

// TestExportDeltaFlags: -delta without the full file it continues, or naming a delta file
// as that full file, is refused with the reason.
func TestExportDeltaFlags(t *testing.T) {
	ctx := context.Background()
	err := cmdExport(ctx, []string{"-delta", "d.bin", "-cql-hosts", "127.0.0.1:1"})
	if err == nil || !strings.Contains(err.Error(), "-snapshot FULL.bin") {
		t.Errorf("-delta alone: %v, want the full file asked for", err)
	}
	if _, err := readFullHeader(realDelta + ".bin"); err == nil || !strings.Contains(err.Error(), "not a full snapshot") {
		t.Errorf("a delta named as the full file: %v", err)
	}
}
