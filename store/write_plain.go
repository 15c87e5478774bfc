package store

import (
	"context"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// WriteAlone runs w on its own through session s, at its timestamp, outside any batch and
// pool: the plain writer benchmarks compare Apply with.
func (w Write) WriteAlone(ctx context.Context, s *cql.Session) error {
	return s.Write(ctx, w.stmt, w.TS, w.Args...)
}

// SyncWrite is the sync row of milestone index synced by node as a Write at the
// milestone's confirmed timestamp, for writers that send prebuilt writes (benchmarks);
// the pipeline writes sync rows with WriteSync.
func (st *Store) SyncWrite(index uint32, node int8) Write {
	return Write{stmt: cql.InsertSync, TS: Timestamp(index, PhaseConfirmed),
		Args: []any{st.RangeID(index), int32(index), node, unset}}
}
