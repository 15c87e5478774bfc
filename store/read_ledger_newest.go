package store

import (
	"context"
	"math"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// unspentRowsNewest reads one page of a newest-first statement whose binds are key then
// a span. As the oldest-first reads (read_sliced.go), a page resumes from a position (here
// below its last row, never from the driver's paging state), and a read the node aborts
// for tombstones is read again in slices of creation time, from the top down. The paging
// state is a slice whose From is the exclusive upper end of what is left.
func (st *Store) unspentRowsNewest(ctx context.Context, stmt *cql.Statement, key []any, span Span, req PageRequest) (
	[]UnspentRow, []byte, error) {
	sl, ok := decodeSlice(req.State)
	if !ok {
		sl = slice{From: span.To}
	}
	return slicedRowsNewest(st.spanReader(ctx, stmt, key), span, sl, req.Size)
}

// slicedRowsNewest reads newest first below sl.From (the zero position: from the end of
// time) down to span.From until it has rows or the span is done, and the state to resume.
// Slices (Width > 0) reach Width seconds down from their top; an aborted read halves the
// width, an empty slice doubles the next one's (unless a read was aborted just before).
func slicedRowsNewest(read rowsReader, span Span, sl slice, size int) ([]UnspentRow, []byte, error) {
	upper := sl.From
	if upper == (Position{}) {
		upper = Position{CreatedAt: math.MaxInt64}
	}
	cut := false
	for less(span.From, upper) {
		if sl.Width > 0 && upper.CreatedAt > sliceHorizon() {
			upper = Position{CreatedAt: sliceHorizon()} // nothing is created past the horizon
		}
		lower := span.From
		if sl.Width > 0 && upper.CreatedAt-sl.Width > lower.CreatedAt {
			lower = Position{CreatedAt: upper.CreatedAt - sl.Width}
		}
		rows, more, err := read(Span{From: lower, To: upper}, size)
		if tooManyTombstones(err) {
			var narrowed bool
			if sl.Width, narrowed = narrowerDown(sl.Width); !narrowed {
				return nil, nil, err
			}
			cut = true
			continue
		} else if err != nil {
			return nil, nil, err
		}
		if more { // the page is full: resume below its last row
			last := rows[len(rows)-1]
			sl.From = Position{CreatedAt: last.CreatedAt, OutputID: last.OutputID}
			return rows, sl.encode(), nil
		}
		upper = lower
		if sl.Width > 0 && len(rows) == 0 && !cut {
			sl.Width = min(sl.Width*2, sliceMaxWidth)
		}
		cut = false
		if len(rows) > 0 {
			if sl.From = upper; !less(span.From, upper) {
				return rows, nil, nil
			}
			return rows, sl.encode(), nil
		}
	}
	return nil, nil, nil
}

// narrowerDown is the width of the slice to read after a read of width w (0: not
// sliced) was aborted: the first slice's, or half of w; false when w is one second.
func narrowerDown(w int64) (int64, bool) {
	switch {
	case w == 0:
		return sliceFirstWidth, true
	case w <= 1:
		return w, false
	}
	return w / 2, true
}
