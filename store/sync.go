package store

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// SyncRow is one fully written milestone.
type SyncRow struct {
	Index    uint32 `cql:"milestone_index"`
	SyncedBy int8   `cql:"synced_by"`
	LoggedBy *int8  `cql:"logged_by"` // the node that imported it from an archive, if one did
}

// Range is the inclusive milestone range [From, To].
type Range struct {
	From uint32 `json:"from"`
	To   uint32 `json:"to"`
}

// Len is the number of milestones in r.
func (r Range) Len() int { return int(r.To-r.From) + 1 }

// WriteSync marks a milestone fully written. Call it only after every other write of the
// milestone was acknowledged: a sync row is the promise that the milestone is complete.
// Unlike the data rows it carries the server's clock, not chain order: it records an
// event of this deployment, and a re-sync (Unsync, then a rewrite) must be able to win.
// loggedBy, when not 0, marks a milestone ingested from an archive (`indexer import`):
// the node that imported it, in the seed's logged_by column.
func (st *Store) WriteSync(ctx context.Context, index uint32, node, loggedBy int8) error {
	logged := any(unset)
	if loggedBy != 0 {
		logged = loggedBy
	}
	if err := st.s.Exec(ctx, cql.InsertSync, st.RangeID(index), int32(index), node, logged); err != nil {
		return err
	}
	st.touchSync(index)
	return nil
}

// Synced returns which milestones in [from, to] have a sync row, reading one ms_range_id
// partition at a time (never the seed's full-table scan).
func (st *Store) Synced(ctx context.Context, from, to uint32) (map[uint32]int8, error) {
	rows, err := st.syncRows(ctx, from, to)
	out := make(map[uint32]int8, len(rows))
	for _, row := range rows {
		out[row.Index] = row.SyncedBy
	}
	return out, err
}

// syncRows reads the sync rows of [from, to], one ms_range_id partition at a time.
func (st *Store) syncRows(ctx context.Context, from, to uint32) ([]SyncRow, error) {
	var out []SyncRow
	for r := st.RangeID(from); from <= to && r <= st.RangeID(to); r++ {
		lo := max(from, uint32(r)*st.ChunkSize)
		hi := min(uint64(to)+1, uint64(r+1)*uint64(st.ChunkSize)) // exclusive; may exceed uint32 at the top
		rows, err := cql.Records[SyncRow](ctx, st.s, cql.SyncRange, []any{r, int32(lo), clampInt32(hi)})
		if err != nil {
			return nil, fmt.Errorf("reading sync range %d: %w", r, err)
		}
		out = append(out, rows...)
	}
	return out, nil
}

// clampInt32 binds a bound past the int columns' range as their largest value.
func clampInt32(v uint64) int32 { return int32(min(v, math.MaxInt32)) }

// Gaps lists the ranges in [from, to] without a sync row, oldest first.
func Gaps(synced map[uint32]int8, from, to uint32) []Range {
	return runs(from, to, func(i uint32) bool { _, ok := synced[i]; return !ok })
}

// SyncedRanges folds the synced milestones in [from, to] into contiguous ranges.
func SyncedRanges(synced map[uint32]int8, from, to uint32) []Range {
	return runs(from, to, func(i uint32) bool { _, ok := synced[i]; return ok })
}

// runs folds the indexes in [from, to] for which keep holds into contiguous ranges.
func runs(from, to uint32, keep func(uint32) bool) []Range {
	var out []Range
	for i := uint64(from); i <= uint64(to); i++ {
		if !keep(uint32(i)) {
			continue
		}
		if n := len(out); n > 0 && uint64(out[n-1].To)+1 == i {
			out[n-1].To = uint32(i)
		} else {
			out = append(out, Range{uint32(i), uint32(i)})
		}
	}
	return out
}

// Unsync deletes a milestone's sync row so the next run rewrites the milestone. The
// delete's timestamp is the row's own plus one, never a clock: a re-sync asked from a
// host whose clock runs ahead cannot shadow the rewrite, whose sync row the coordinator
// stamps (cql.InsertSync).
func (st *Store) Unsync(ctx context.Context, index uint32) error {
	var written *int64
	err := notFound(st.s.Scan(ctx, cql.SyncWriteTime, []any{st.RangeID(index), int32(index)}, &written))
	switch {
	case errors.Is(err, ErrNotFound) || (err == nil && written == nil):
		// not synced: nothing to delete
	case err != nil:
		return err
	default:
		if err := st.s.Write(ctx, cql.DeleteSync, *written+1, st.RangeID(index), int32(index)); err != nil {
			return err
		}
	}
	st.touchSync(index)
	return nil
}

// LoggedBy returns the sync.logged_by of the milestones in [from, to] that have one:
// the node that imported each from an archive.
func (st *Store) LoggedBy(ctx context.Context, from, to uint32) (map[uint32]int8, error) {
	rows, err := st.syncRows(ctx, from, to)
	out := map[uint32]int8{}
	for _, row := range rows {
		if row.LoggedBy != nil {
			out[row.Index] = *row.LoggedBy
		}
	}
	return out, err
}
