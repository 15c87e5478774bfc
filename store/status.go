package store

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// ErrNothingSynced: the sync table is empty.
var ErrNothingSynced = errors.New("nothing is synced yet")

// SyncSpan is where the sync rows lie: the oldest and newest synced milestones and the
// ms_range_id partitions that hold sync rows. Reading it takes a handful of rows, never
// the whole table.
type SyncSpan struct {
	Oldest, Newest uint32
	Partitions     []int32 // ascending
}

// SyncSpan reads the span of the sync table; ErrNothingSynced when it is empty.
func (st *Store) SyncSpan(ctx context.Context) (SyncSpan, error) {
	parts, err := cql.Records[int32](ctx, st.s, cql.SyncPartitions, nil)
	if err != nil {
		return SyncSpan{}, err
	}
	if len(parts) == 0 {
		return SyncSpan{}, ErrNothingSynced
	}
	slices.Sort(parts)
	var oldest, newest int32
	if err := st.s.Scan(ctx, cql.SyncOldest, []any{parts[0]}, &oldest); err != nil {
		return SyncSpan{}, err
	}
	if err := st.s.Scan(ctx, cql.SyncNewest, []any{parts[len(parts)-1]}, &newest); err != nil {
		return SyncSpan{}, err
	}
	return SyncSpan{Oldest: uint32(oldest), Newest: uint32(newest), Partitions: parts}, nil
}

// FloorSynced is the newest synced milestone at or before index (index >= span.Oldest):
// the first row of a sync range read in the partition's descending order, one row per
// query, stepping back over partitions that have none in range.
func (st *Store) FloorSynced(ctx context.Context, span SyncSpan, index uint32) (uint32, error) {
	chunk := uint64(st.ChunkSize)
	for r := st.RangeID(index); r >= st.RangeID(span.Oldest); r-- {
		if _, ok := slices.BinarySearch(span.Partitions, r); !ok {
			continue
		}
		lo := max(uint64(span.Oldest), uint64(r)*chunk)
		hi := min(uint64(index)+1, uint64(r+1)*chunk) // exclusive
		rows, _, err := cql.RecordPage[SyncRow](ctx, st.s, cql.SyncRange, []any{r, int32(lo), clampInt32(hi)}, 1, nil)
		if err != nil {
			return 0, err
		}
		if len(rows) > 0 {
			return rows[0].Index, nil
		}
	}
	return 0, fmt.Errorf("no synced milestone at or before %d (the oldest, %d, was unsynced meanwhile?)", index, span.Oldest)
}

// SyncStatus summarises the sync table: the synced span, its ranges and its gaps.
type SyncStatus struct {
	Oldest, Newest uint32 // 0, 0 when nothing is synced
	Synced         []Range
	Gaps           []Range
	Truncated      bool // the summary dropped ranges older than Synced[0] (SyncView only)
}

// Status reads the sync table partition by partition.
func (st *Store) Status(ctx context.Context) (SyncStatus, error) {
	span, err := st.SyncSpan(ctx)
	if errors.Is(err, ErrNothingSynced) {
		return SyncStatus{}, nil
	}
	if err != nil {
		return SyncStatus{}, err
	}
	synced, err := st.Synced(ctx, span.Oldest, span.Newest)
	if err != nil {
		return SyncStatus{}, err
	}
	return SyncStatus{Oldest: span.Oldest, Newest: span.Newest,
		Synced: SyncedRanges(synced, span.Oldest, span.Newest),
		Gaps:   Gaps(synced, span.Oldest, span.Newest)}, nil
}
