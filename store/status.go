package store

import (
	"context"
	"slices"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// SyncStatus summarises the sync table: the synced span, its ranges and its gaps.
type SyncStatus struct {
	Oldest, Newest uint32 // 0, 0 when nothing is synced
	Synced         []Range
	Gaps           []Range
}

// Status reads the sync table partition by partition.
func (st *Store) Status(ctx context.Context) (SyncStatus, error) {
	parts, err := cql.Collect(ctx, st.S, cql.SyncPartitions, nil, func(it *gocql.Iter, r *int32) bool { return it.Scan(r) })
	if err != nil || len(parts) == 0 {
		return SyncStatus{}, err
	}
	slices.Sort(parts)
	var oldest, newest int32
	if err := st.S.Scan(ctx, cql.SyncOldest, []any{parts[0]}, &oldest); err != nil {
		return SyncStatus{}, err
	}
	if err := st.S.Scan(ctx, cql.SyncNewest, []any{parts[len(parts)-1]}, &newest); err != nil {
		return SyncStatus{}, err
	}
	synced, err := st.Synced(ctx, uint32(oldest), uint32(newest))
	if err != nil {
		return SyncStatus{}, err
	}
	return SyncStatus{Oldest: uint32(oldest), Newest: uint32(newest),
		Synced: SyncedRanges(synced, uint32(oldest), uint32(newest)),
		Gaps:   Gaps(synced, uint32(oldest), uint32(newest))}, nil
}
