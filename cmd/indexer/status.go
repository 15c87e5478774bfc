package main

import (
	"context"
	"encoding/json"
	"flag"
	"os"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/store"
)

func cmdStatus(ctx context.Context, args []string) error {
	var db dbFlags
	var tip uint
	var rebuild bool
	err := parseFlags("status", args, func(fs *flag.FlagSet) {
		db.register(fs)
		fs.UintVar(&tip, "tip", 0, "the source's newest milestone, to report lag (0: unknown)")
		fs.BoolVar(&rebuild, "rebuild-summary", false, "also store what was read as the sync summary GET /sync "+
			"serves (after a node died between writing sync rows and summarising them)")
	})
	if err != nil {
		return err
	}
	return db.withStore(ctx, func(st *store.Store, cfg cql.Config) error { return printStatus(ctx, st, cfg, tip, rebuild) })
}

// printStatus prints the synced ranges, gaps, watermark and (with tip) lag as JSON.
func printStatus(ctx context.Context, st *store.Store, cfg cql.Config, tip uint, rebuild bool) error {
	read := st.Status
	if rebuild {
		read = func(ctx context.Context) (store.SyncStatus, error) {
			return st.RebuildSyncSummary(ctx, "indexer status")
		}
	}
	s, err := read(ctx)
	if err != nil {
		return err
	}
	out := map[string]any{"keyspace": cfg.Keyspace, "chunk_size": st.ChunkSize, "oldest": s.Oldest,
		"newest": s.Newest, "synced": orEmpty(s.Synced), "gaps": orEmpty(s.Gaps)}
	// The watermark is the newest milestone any node synced, kept without a scan.
	if _, w, by, err := st.Meta(ctx, store.NewestSyncedConcern); err == nil {
		out["newest_watermark"], out["newest_watermark_by"] = w, by
	}
	// Milestones the source refused as not held: skipped, retried slowly, filled by an import.
	if rs, err := st.Unavailable(ctx); err == nil {
		out["unavailable"], out["unavailable_milestones"] = orEmpty(rs), store.CountOf(rs)
	}
	if rec, ok, err := st.Network(ctx); ok && err == nil {
		out["network"] = rec
	}
	if tip != 0 {
		out["lag"] = int64(tip) - int64(s.Newest)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func orEmpty(rs []store.Range) []store.Range {
	if rs == nil {
		return []store.Range{}
	}
	return rs
}
