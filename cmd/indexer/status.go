package main

import (
	"context"
	"encoding/json"
	"flag"
	"os"

	"github.com/stardust-indexer/stardust-indexer/store"
)

func cmdStatus(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("status", flag.ContinueOnError)
	var db dbFlags
	db.register(fs)
	tip := fs.Uint("tip", 0, "the source's newest milestone, to report lag (0: unknown)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	st, cfg, err := db.open(ctx)
	if err != nil {
		return err
	}
	defer st.S.Close()
	s, err := st.Status(ctx)
	if err != nil {
		return err
	}
	out := map[string]any{"keyspace": cfg.Keyspace, "chunk_size": st.ChunkSize, "oldest": s.Oldest,
		"newest": s.Newest, "synced": orEmpty(s.Synced), "gaps": orEmpty(s.Gaps)}
	// The watermark is the newest milestone any node synced, kept without a scan.
	if _, w, by, err := store.Meta(ctx, st.S, store.NewestSyncedConcern); err == nil {
		out["newest_watermark"], out["newest_watermark_by"] = w, by
	}
	if rec, ok, err := st.Network(ctx); ok && err == nil {
		out["network"] = rec
	}
	if *tip != 0 {
		out["lag"] = int64(*tip) - int64(s.Newest)
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
