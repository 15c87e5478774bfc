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
	err := parseFlags("status", args, func(fs *flag.FlagSet) {
		db.register(fs)
		fs.UintVar(&tip, "tip", 0, "the source's newest milestone, to report lag (0: unknown)")
	})
	if err != nil {
		return err
	}
	return db.withStore(ctx, func(st *store.Store, cfg cql.Config) error { return printStatus(ctx, st, cfg, tip) })
}

// printStatus prints the synced ranges, gaps, watermark and (with tip) lag as JSON.
func printStatus(ctx context.Context, st *store.Store, cfg cql.Config, tip uint) error {
	s, err := st.Status(ctx)
	if err != nil {
		return err
	}
	out := map[string]any{"keyspace": cfg.Keyspace, "chunk_size": st.ChunkSize, "oldest": s.Oldest,
		"newest": s.Newest, "synced": orEmpty(s.Synced), "gaps": orEmpty(s.Gaps)}
	// The watermark is the newest milestone any node synced, kept without a scan.
	if _, w, by, err := st.Meta(ctx, store.NewestSyncedConcern); err == nil {
		out["newest_watermark"], out["newest_watermark_by"] = w, by
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
