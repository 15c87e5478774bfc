package main

import (
	"context"
	"flag"
	"log/slog"
	"strconv"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/migrations"
	"github.com/stardust-indexer/stardust-indexer/store"
)

func cmdMigrate(ctx context.Context, args []string) error {
	var db dbFlags
	if err := parseFlags("migrate", args, db.register); err != nil {
		return err
	}
	return migrate(ctx, db)
}

// parseFlags parses a subcommand's arguments with the flags register defines.
func parseFlags(name string, args []string, register func(*flag.FlagSet)) error {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	register(fs)
	return fs.Parse(args)
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
	if err := setup(ctx, cfg, repl, uint32(db.chunkSize), strconv.Itoa(db.nodeID)); err != nil {
		return err
	}
	slog.Info("schema is current", "keyspace", cfg.Keyspace)
	return nil
}

// setup creates the keyspace if needed, applies the migrations and records (or checks)
// the chunk size. All of it goes through one coordinator (cql.OpenSchema): on a
// multi-node Cassandra 5.0 cluster, DDL spread over several coordinators fails once a
// node has learned a materialized view through a schema push.
func setup(ctx context.Context, cfg cql.Config, repl migrations.Replication, chunkSize uint32, node string) error {
	if err := migrations.Apply(ctx, cfg.Keyspace, repl, cfg.SchemaSession); err != nil {
		return err
	}
	return ensureChunkSize(ctx, cfg, chunkSize, node)
}

// ensureChunkSize records the keyspace's chunk size, or checks it against the one
// recorded.
func ensureChunkSize(ctx context.Context, cfg cql.Config, chunkSize uint32, node string) error {
	s, err := cql.OpenSchema(cfg)
	if err != nil {
		return err
	}
	st := store.New(s, chunkSize)
	defer st.Close()
	return st.EnsureChunkSize(ctx, node)
}
