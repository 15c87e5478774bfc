package analytics

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// syncSpan is what the day search runs over: the oldest and newest synced milestones
// and the ms_range_id partitions that hold sync rows. It reads a handful of rows, never
// the whole sync table (store.Status does, to list gaps).
type syncSpan struct {
	st             *store.Store
	oldest, newest uint32
	parts          []int32 // ascending
	times          map[uint32]time.Time
}

// errNothingSynced: the sync table is empty.
var errNothingSynced = errors.New("nothing is synced yet")

func loadSpan(ctx context.Context, st *store.Store) (*syncSpan, error) {
	parts, err := cql.Collect(ctx, st.S, cql.SyncPartitions, nil, func(it *gocql.Iter, r *int32) bool { return it.Scan(r) })
	if err != nil {
		return nil, err
	}
	if len(parts) == 0 {
		return nil, errNothingSynced
	}
	slices.Sort(parts)
	var oldest, newest int32
	if err := st.S.Scan(ctx, cql.SyncOldest, []any{parts[0]}, &oldest); err != nil {
		return nil, err
	}
	if err := st.S.Scan(ctx, cql.SyncNewest, []any{parts[len(parts)-1]}, &newest); err != nil {
		return nil, err
	}
	return &syncSpan{st: st, oldest: uint32(oldest), newest: uint32(newest), parts: parts,
		times: map[uint32]time.Time{}}, nil
}

// timeOf reads a milestone's timestamp (milestones.by_index), remembering it.
func (s *syncSpan) timeOf(ctx context.Context, index uint32) (time.Time, error) {
	if t, ok := s.times[index]; ok {
		return t, nil
	}
	m, err := s.st.Milestone(ctx, index)
	if err != nil {
		return time.Time{}, fmt.Errorf("timestamp of milestone %d: %w", index, err)
	}
	t := time.Unix(m.Timestamp, 0).UTC()
	s.times[index] = t
	return t, nil
}

func (s *syncSpan) dateOf(ctx context.Context, index uint32) (time.Time, error) {
	t, err := s.timeOf(ctx, index)
	return Day(t), err
}

// floorSynced is the newest synced milestone at or before index (index >= oldest):
// the first row of a sync range read in the partition's descending order, one row per
// query, stepping back over partitions that have none in range.
func (s *syncSpan) floorSynced(ctx context.Context, index uint32) (uint32, error) {
	chunk := uint64(s.st.ChunkSize)
	for r := s.st.RangeID(index); r >= s.st.RangeID(s.oldest); r-- {
		if _, ok := slices.BinarySearch(s.parts, r); !ok {
			continue
		}
		lo := max(uint64(s.oldest), uint64(r)*chunk)
		hi := min(uint64(index)+1, uint64(r+1)*chunk) // exclusive
		rows, _, err := cql.CollectPage(ctx, s.st.S, cql.SyncRange, []any{r, int32(lo), clampInt32(hi)}, 1, nil,
			func(it *gocql.Iter, idx *int32) bool { return it.Scan(idx, nil, nil) })
		if err != nil {
			return 0, err
		}
		if len(rows) > 0 {
			return uint32(rows[0]), nil
		}
	}
	return 0, fmt.Errorf("no synced milestone at or before %d (the oldest, %d, was unsynced meanwhile?)", index, s.oldest)
}

// firstAtOrAfter is the first synced milestone whose timestamp is at or after t, or
// newest+1 when there is none. It binary-searches the index space: "the newest synced
// milestone at or before i has a timestamp >= t" only turns from false to true as i
// grows (timestamps never decrease along the chain), and where it turns, i is synced.
func (s *syncSpan) firstAtOrAfter(ctx context.Context, t time.Time) (uint32, error) {
	var err error
	n := int(s.newest - s.oldest + 1)
	k := sort.Search(n, func(k int) bool {
		if err != nil {
			return true
		}
		var at time.Time
		at, err = s.timeAtOrBefore(ctx, s.oldest+uint32(k))
		return err != nil || !at.Before(t)
	})
	return s.oldest + uint32(k), err
}

func (s *syncSpan) timeAtOrBefore(ctx context.Context, index uint32) (time.Time, error) {
	floor, err := s.floorSynced(ctx, index)
	if err != nil {
		return time.Time{}, err
	}
	return s.timeOf(ctx, floor)
}

func clampInt32(v uint64) int32 { return int32(min(v, math.MaxInt32)) }
