package store

import (
	"context"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// Open connects to a migrated keyspace and reads its chunk size. want, when non-zero, is
// the configured chunk size: a different recorded one is refused (ErrChunkSizeMismatch).
func Open(ctx context.Context, cfg cql.Config, want uint32) (*Store, error) {
	s, err := cql.Open(cfg)
	if err != nil {
		return nil, err
	}
	st := New(s, want)
	got, err := st.recordedChunkSize(ctx)
	switch {
	case err != nil:
		err = fmt.Errorf("reading chunk size (was `indexer migrate` run?): %w", err)
	case got == 0:
		err = fmt.Errorf("keyspace %s has no chunk size recorded: run `indexer migrate` first", cfg.Keyspace)
	case want != 0 && got != want:
		err = fmt.Errorf("%w: keyspace has %d, configured %d", ErrChunkSizeMismatch, got, want)
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	st.ChunkSize = got
	return st, nil
}
