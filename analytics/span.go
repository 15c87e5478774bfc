package analytics

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// syncSpan is what the day search runs over: the store's span of synced milestones
// (store.SyncSpan: a handful of rows, never the whole sync table) and the store whose
// milestone times the search reads.
type syncSpan struct {
	store.SyncSpan
	st *store.Store
}

// loadSpan reads the span; store.ErrNothingSynced when the sync table is empty.
func loadSpan(ctx context.Context, st *store.Store) (*syncSpan, error) {
	span, err := st.SyncSpan(ctx)
	if err != nil {
		return nil, err
	}
	return &syncSpan{SyncSpan: span, st: st}, nil
}

// timeOf is a milestone's timestamp (store.MilestoneTime keeps what it read).
func (s *syncSpan) timeOf(ctx context.Context, index uint32) (time.Time, error) {
	t, err := s.st.MilestoneTime(ctx, index)
	if err != nil {
		return time.Time{}, fmt.Errorf("timestamp of milestone %d: %w", index, err)
	}
	return t, nil
}

func (s *syncSpan) dateOf(ctx context.Context, index uint32) (time.Time, error) {
	t, err := s.timeOf(ctx, index)
	return Day(t), err
}

// firstAtOrAfter is the first synced milestone whose timestamp is at or after t, or
// newest+1 when there is none. It binary-searches the index space: "the newest synced
// milestone at or before i has a timestamp >= t" only turns from false to true as i
// grows (timestamps never decrease along the chain), and where it turns, i is synced.
func (s *syncSpan) firstAtOrAfter(ctx context.Context, t time.Time) (uint32, error) {
	var err error
	n := int(s.Newest - s.Oldest + 1)
	k := sort.Search(n, func(k int) bool {
		if err != nil {
			return true
		}
		var at time.Time
		at, err = s.timeAtOrBefore(ctx, s.Oldest+uint32(k))
		return err != nil || !at.Before(t)
	})
	return s.Oldest + uint32(k), err
}

func (s *syncSpan) timeAtOrBefore(ctx context.Context, index uint32) (time.Time, error) {
	floor, err := s.st.FloorSynced(ctx, s.SyncSpan, index)
	if err != nil {
		return time.Time{}, err
	}
	return s.timeOf(ctx, floor)
}
