package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/ingest/bootstrap"
	"github.com/stardust-indexer/stardust-indexer/internal/adaptive"
	"github.com/stardust-indexer/stardust-indexer/ops"
	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// cmdBootstrap loads the whole ledger from Hornet snapshot files (TIP-35) into the keyspace.
func cmdBootstrap(ctx context.Context, args []string) error {
	var db dbFlags
	var full, delta, keysFile, opsAddr string
	var doMigrate, fixed bool
	var batch, inFlight, writes, gcPercent int
	var memoryLimit, maxDiff, maxDiffs int64
	err := parseFlags("bootstrap", args, func(fs *flag.FlagSet) {
		db.register(fs)
		fs.StringVar(&full, "snapshot", "", "the full snapshot file (required; Hornet keeps it as snapshots/<network>/full_snapshot.bin)")
		fs.StringVar(&delta, "delta", "", "a delta snapshot file that continues the full one (delta_snapshot.bin)")
		fs.StringVar(&keysFile, "milestone-keys", "", "a Hornet config (or its protocol section) with the network's milestone "+
			"keys (default: the built-in keys of shimmer and iota-mainnet)")
		fs.StringVar(&opsAddr, "ops-addr", "127.0.0.1:9100",
			"address of /metrics, /healthz, /readyz (loopback by default; empty: off)")
		fs.BoolVar(&doMigrate, "migrate", false, "create/upgrade the schema first")
		fs.IntVar(&batch, "batch", 256, "outputs per write call")
		fs.IntVar(&inFlight, "in-flight", 16, "write calls at once")
		fs.IntVar(&writes, "write-parallel", 0, "write groups in flight: where the adaptive limit starts, or the fixed limit with -fixed-writes")
		fs.BoolVar(&fixed, "fixed-writes", false, "keep -write-parallel write groups in flight instead of adapting")
		fs.IntVar(&gcPercent, "gc-percent", 400, "the Go collector's GOGC for the bootstrap (0: keep GOGC's or the runtime's)")
		fs.Int64Var(&maxDiff, "max-diff-bytes", snapshot.DefaultLimits.DiffLength,
			"the largest milestone diff a snapshot file may state, in bytes (larger: refused before it is read)")
		fs.Int64Var(&maxDiffs, "max-diffs-bytes", snapshot.DefaultLimits.DiffsLength,
			"the most bytes a snapshot file's milestone diffs may state together (they are held in memory)")
		fs.Int64Var(&memoryLimit, "memory-limit", 192<<20, "the Go runtime's soft memory limit in bytes for the bootstrap (0: keep GOMEMLIMIT's or none)")
	})
	if err != nil {
		return err
	}
	if full == "" {
		return errors.New("bootstrap needs -snapshot FULL.bin (and, optionally, -delta DELTA.bin)")
	}
	keys, err := readKeys(keysFile)
	if err != nil {
		return err
	}
	if doMigrate {
		if err := migrate(ctx, db); err != nil {
			return err
		}
	}
	// The bootstrap's live heap is small and bounded, so collecting less often spends less of
	// the CPU it shares with the database; the soft memory limit keeps the memory that buys
	// the same whatever the file's size.
	if gcPercent > 0 {
		debug.SetGCPercent(gcPercent)
	}
	if memoryLimit > 0 {
		debug.SetMemoryLimit(memoryLimit)
	}
	reg := ops.NewRegistry()
	cfg := bootstrap.Config{Full: full, Delta: delta, Keys: keys, Node: strconv.Itoa(db.nodeID), Batch: batch,
		InFlight: inFlight, Metrics: bootstrap.NewMetrics(reg), Log: slog.Default(),
		Limits: snapshot.Limits{DiffLength: maxDiff, DiffsLength: maxDiffs}}
	if fixed {
		cfg.Writes = adaptive.Fixed(max(writes, 1))
	}
	return db.withStore(ctx, func(st *store.Store, _ cql.Config) error {
		if writes > 0 && !fixed {
			cfg.Writes = adaptive.NewLimiter(writes, 4, st.MaxInFlight(), nil)
		}
		ops.Serve(ctx, opsAddr, reg, func(ctx context.Context) error { return st.Ping(store.NoRetries(ctx)) })
		start := time.Now()
		rec, err := bootstrap.Run(ctx, st, cfg)
		if err != nil {
			return fmt.Errorf("bootstrap from %s: %w", full, err)
		}
		if cfg.Metrics.RowsWritten() == 0 { // the keyspace's indexed milestones already pass the file's ledger
			return nil
		}
		slog.Info("bootstrapped", "ledger_index", rec.Index, "milestone_id", rec.MilestoneID, "outputs", rec.Outputs,
			"supply", rec.Supply, "kind", rec.Kind, "rows", cfg.Metrics.RowsWritten(), "took", time.Since(start).Round(time.Millisecond),
			"next", "indexer run starts at "+strconv.FormatUint(uint64(rec.Index)+1, 10))
		return nil
	})
}
