package store

import (
	"context"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/migrations"
)

// Setup creates the keyspace if needed, applies the migrations and records (or checks)
// the chunk size: what `indexer migrate` does, and what a node does before it writes.
// All of it goes through one coordinator (cql.OpenSchema).
func Setup(ctx context.Context, cfg cql.Config, repl migrations.Replication, chunkSize uint32, node string) error {
	admin := cfg
	admin.Keyspace = ""
	s, err := cql.OpenSchema(admin)
	if err != nil {
		return err
	}
	err = migrations.CreateKeyspace(ctx, s.Gocql(), cfg.Keyspace, repl)
	s.Close()
	if err != nil {
		return fmt.Errorf("creating keyspace %s: %w", cfg.Keyspace, err)
	}
	ks, err := cql.OpenSchema(cfg)
	if err != nil {
		return err
	}
	defer ks.Close()
	if err := migrations.Up(ctx, ks.Gocql(), cfg.Keyspace); err != nil {
		return err
	}
	return EnsureChunkSize(ctx, ks, chunkSize, node)
}

// Open connects to a migrated keyspace and reads its chunk size. want, when non-zero, is
// the configured chunk size: a different recorded one is refused (ErrChunkSizeMismatch).
func Open(ctx context.Context, cfg cql.Config, want uint32) (*Store, error) {
	s, err := cql.Open(cfg)
	if err != nil {
		return nil, err
	}
	got, err := ChunkSize(ctx, s)
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("reading chunk size (was `indexer migrate` run?): %w", err)
	}
	if got == 0 {
		s.Close()
		return nil, fmt.Errorf("keyspace %s has no chunk size recorded: run `indexer migrate` first", cfg.Keyspace)
	}
	if want != 0 && got != want {
		s.Close()
		return nil, fmt.Errorf("%w: keyspace has %d, configured %d", ErrChunkSizeMismatch, got, want)
	}
	return New(s, got), nil
}
