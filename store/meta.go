package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// NewestSyncedConcern is the indexer_meta row whose watermark is the newest milestone any
// node synced: advanced by a conditional update, so a slower node finishing an older block
// never moves it back.
const NewestSyncedConcern = "newest_synced"

// ErrChunkSizeMismatch: the keyspace was indexed with another chunk size.
var ErrChunkSizeMismatch = errors.New("chunk size differs from the one this keyspace was indexed with")

// EnsureChunkSize records the store's chunk size on first use and refuses a different
// one later: every ms_range_id already written depends on it.
func (st *Store) EnsureChunkSize(ctx context.Context, node string) error {
	want := strconv.FormatUint(uint64(st.ChunkSize), 10)
	applied, current, err := st.s.CAS(ctx, cql.InitMeta, "chunk_size", want, int64(0), node)
	if err != nil {
		return fmt.Errorf("recording chunk size: %w", err)
	}
	if got, _ := current["value"].(string); !applied && got != want {
		return fmt.Errorf("%w: keyspace has %s, configured %d", ErrChunkSizeMismatch, got, st.ChunkSize)
	}
	return nil
}

// recordedChunkSize reads the recorded chunk size (0 and no error when none is recorded yet).
func (st *Store) recordedChunkSize(ctx context.Context) (uint32, error) {
	value, _, _, err := st.Meta(ctx, "chunk_size")
	if errors.Is(err, ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseUint(value, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("indexer_meta chunk_size %q: %w", value, err)
	}
	return uint32(n), nil
}

// Meta reads one concern's row; ErrNotFound when it has none.
func (st *Store) Meta(ctx context.Context, concern string) (value string, watermark int64, by string, err error) {
	var v, b *string
	var w *int64
	if err = st.s.Scan(ctx, cql.Meta, []any{concern}, &v, &w, &b); err != nil {
		return "", 0, "", notFound(err)
	}
	if v != nil {
		value = *v
	}
	if w != nil {
		watermark = *w
	}
	if b != nil {
		by = *b
	}
	return value, watermark, by, nil
}

// AdvanceWatermark moves a concern's watermark to w if w is newer, creating the row on
// first use. It reports whether w was stored; an older w never overwrites a newer one,
// however the writes of several nodes interleave.
func (st *Store) AdvanceWatermark(ctx context.Context, concern string, w int64, value, node string) (bool, error) {
	applied, _, err := st.s.CAS(ctx, cql.InitMeta, concern, value, w, node)
	if err != nil || applied {
		return applied, err
	}
	applied, _, err = st.s.CAS(ctx, cql.AdvanceMeta, w, value, node, concern, w)
	if err != nil {
		return false, fmt.Errorf("advancing %s to %d: %w", concern, w, err)
	}
	return applied, nil
}

// metaJSON reads the JSON value of a metadata row; ok is false when the row is absent.
func metaJSON[T any](ctx context.Context, st *Store, concern string) (v T, ok bool, err error) {
	value, _, _, err := st.Meta(ctx, concern)
	if errors.Is(err, ErrNotFound) {
		return v, false, nil
	}
	if err != nil {
		return v, false, err
	}
	if err := json.Unmarshal([]byte(value), &v); err != nil {
		return v, false, fmt.Errorf("indexer_meta %s %q: %w", concern, value, err)
	}
	return v, true, nil
}
