package store

import (
	"context"
	"errors"
	"slices"
)

// UnavailableConcern is the indexer_meta row listing the milestones the source refused
// as no longer held (a pruned node): its value is their ranges as JSON, its watermark a
// version every replacement compares and sets, as the sync summary's. The pipeline skips
// them between slow retries; a later fetch or an import that writes one removes it.
const UnavailableConcern = "unavailable_milestones"

var (
	errUnavailableContended  = errors.New("unavailable milestones: compare-and-set lost too many times")
	errUnavailableUnreadable = errors.New("unavailable milestones row does not decode")
)

// unavailableList is the row's value.
type unavailableList struct {
	Ranges []Range `json:"ranges"` // normalized
}

// Unavailable reads the milestones recorded as not held by the source (normalized ranges).
func (st *Store) Unavailable(ctx context.Context) ([]Range, error) {
	l, _, err := st.readUnavailable(ctx)
	return l.Ranges, err
}

// MarkUnavailable records r as not held by the source; marking twice changes nothing.
func (st *Store) MarkUnavailable(ctx context.Context, r Range, node string) ([]Range, error) {
	return st.changeUnavailable(ctx, node, func(rs []Range) []Range {
		return normalize(append(slices.Clone(rs), r))
	})
}

// ClearUnavailable removes r from the record once its milestones are written.
func (st *Store) ClearUnavailable(ctx context.Context, r Range, node string) ([]Range, error) {
	return st.changeUnavailable(ctx, node, func(rs []Range) []Range { return subtract(rs, r) })
}

// changeUnavailable applies change to the record by compare-and-set, rereading when
// another writer got there first; an unchanged list is not written.
func (st *Store) changeUnavailable(ctx context.Context, node string, change func([]Range) []Range) ([]Range, error) {
	l, err := changeVersioned(ctx, st, UnavailableConcern, node, errUnavailableUnreadable, errUnavailableContended,
		func(l unavailableList) (unavailableList, bool) {
			next := change(l.Ranges)
			return unavailableList{Ranges: next}, !slices.Equal(next, l.Ranges)
		})
	return l.Ranges, err
}

// readUnavailable reads the record and its version (0: no row yet).
func (st *Store) readUnavailable(ctx context.Context) (unavailableList, int64, error) {
	return readVersioned[unavailableList](ctx, st, UnavailableConcern, errUnavailableUnreadable)
}

// Without removes the ranges of skip from the normalized list rs.
func Without(rs, skip []Range) []Range {
	for _, w := range skip {
		rs = subtract(rs, w)
	}
	return rs
}

// Overlaps reports whether r shares a milestone with any range of rs.
func Overlaps(rs []Range, r Range) bool {
	for _, x := range rs {
		if x.From <= r.To && r.From <= x.To {
			return true
		}
	}
	return false
}

// CountOf is the number of milestones in rs.
func CountOf(rs []Range) int {
	n := 0
	for _, r := range rs {
		n += r.Len()
	}
	return n
}
