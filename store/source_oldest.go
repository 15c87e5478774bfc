package store

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"
)

// SourceOldestConcern is the indexer_meta row holding, per indexer node, the oldest
// milestone its source (a node, maybe pruned) holds, as it was when that indexer
// started: a versioned JSON row (meta_versioned.go). A resync or repair below all of
// them would unsync milestones no source can serve again.
const SourceOldestConcern = "source_oldest"

// ErrBelowSources refuses to unsync milestones older than every source holds: the
// indexer could not fetch them again; only an archive import can fill them.
var ErrBelowSources = errors.New("below the oldest milestone every source holds: the indexer cannot fetch it " +
	"again (fill such milestones with indexer import of an archive)")

var (
	errSourceOldestUnreadable = errors.New("source_oldest row does not decode")
	errSourceOldestContended  = errors.New("source_oldest: compare-and-set lost too many times")
)

// heldFrom is one indexer node's entry.
type heldFrom struct {
	Oldest uint32    `json:"oldest"`
	At     time.Time `json:"at"`
}

// RecordSourceOldest stores the oldest milestone the source of indexer node holds.
func (st *Store) RecordSourceOldest(ctx context.Context, node string, oldest uint32) error {
	_, err := changeVersioned(ctx, st, SourceOldestConcern, node, errSourceOldestUnreadable, errSourceOldestContended,
		func(all map[string]heldFrom) (map[string]heldFrom, bool) {
			next := maps.Clone(all)
			if next == nil {
				next = map[string]heldFrom{}
			}
			next[node] = heldFrom{Oldest: oldest, At: time.Now().UTC()}
			return next, true
		})
	if errors.Is(err, errSourceOldestContended) {
		return fmt.Errorf("recording the oldest milestone of %s's source: %w", node, err)
	}
	return err
}

// OldestHeld is the oldest milestone any recorded source holds; ok is false when no
// indexer recorded its source (a sim, or indexers started before the record existed).
func (st *Store) OldestHeld(ctx context.Context) (oldest uint32, ok bool, err error) {
	all, _, err := readVersioned[map[string]heldFrom](ctx, st, SourceOldestConcern, errSourceOldestUnreadable)
	if err != nil {
		return 0, false, err
	}
	for _, h := range all {
		if !ok || h.Oldest < oldest {
			oldest, ok = h.Oldest, true
		}
	}
	return oldest, ok, nil
}

// CheckRefetchable refuses (ErrBelowSources) to unsync milestones from `from` on when
// from lies below the oldest milestone any recorded source holds.
func (st *Store) CheckRefetchable(ctx context.Context, from uint32) error {
	oldest, ok, err := st.OldestHeld(ctx)
	if err != nil || !ok || from >= oldest {
		return err
	}
	return fmt.Errorf("%w: milestone %d, the sources hold %d and later", ErrBelowSources, from, oldest)
}
