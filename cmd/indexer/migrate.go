package main

import (
	"context"
	"flag"
	"log/slog"
	"strconv"

	"github.com/stardust-indexer/stardust-indexer/store"
)

func cmdMigrate(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	var db dbFlags
	db.register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	return migrate(ctx, db)
}

// migrate creates the keyspace if needed, applies the schema and records the chunk size.
func migrate(ctx context.Context, db dbFlags) error {
	cfg, err := db.config()
	if err != nil {
		return err
	}
	repl, err := db.replicationConfig()
	if err != nil {
		return err
	}
	slog.Info("migrating", "cluster", cfg.String(), "chunk_size", db.chunkSize)
	if err := store.Setup(ctx, cfg, repl, uint32(db.chunkSize), strconv.Itoa(db.nodeID)); err != nil {
		return err
	}
	slog.Info("schema is current", "keyspace", cfg.Keyspace)
	return nil
}
