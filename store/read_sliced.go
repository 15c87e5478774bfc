package store

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// Reads of the unspent set that survive tombstones. Spent outputs are deleted, and the
// node aborts a read that crosses more tombstones than its limit (100,000 by default).
// A page resumes from the position after its last row (never from the driver's paging
// state), so any read can be narrowed: a read the node aborts is read again as slices of
// creation time, a slice that fails is halved and an empty one doubles the next, so each
// read crosses fewer tombstones than the limit. The paging state carries the position and
// the slice in force.

// sliceFirstWidth is the first slice's width in seconds; sliceMaxWidth bounds the growth.
const (
	sliceFirstWidth = 900
	sliceMaxWidth   = 1 << 24
)

// slice is where a read resumes: From (inclusive) and, while slicing (Width > 0), the
// current slice's exclusive end and the width of the slices after it, in seconds. Width
// 0 reads to the span's end.
type slice struct {
	From  Position
	End   int64
	Width int64
}

func (s slice) encode() []byte {
	b := binary.BigEndian.AppendUint64(nil, uint64(s.From.CreatedAt))
	b = binary.BigEndian.AppendUint64(b, uint64(s.End))
	b = binary.BigEndian.AppendUint64(b, uint64(s.Width))
	return append(b, s.From.OutputID...)
}

func decodeSlice(b []byte) (slice, bool) {
	if len(b) < 24 {
		return slice{}, false
	}
	return slice{From: Position{CreatedAt: int64(binary.BigEndian.Uint64(b)), OutputID: string(b[24:])},
		End: int64(binary.BigEndian.Uint64(b[8:])), Width: int64(binary.BigEndian.Uint64(b[16:]))}, true
}

// tooManyTombstones tells an aborted read (a variable for the tests' fake reads).
var tooManyTombstones = cql.TooManyTombstones

// errNoStart: a read from the start of time failed, slicing needs a first creation time.
var errNoStart = errors.New("a sliced read needs its partition's start")

// rowsReader reads up to size rows of one span (from its start).
type rowsReader func(span Span, size int) ([]UnspentRow, bool, error)

// unspentRows reads one page of an unspent-set statement whose binds are key then a span.
func (st *Store) unspentRows(ctx context.Context, stmt *cql.Statement, key []any, rng int32, span Span,
	req PageRequest) ([]UnspentRow, []byte, error) {
	read := st.spanReader(ctx, stmt, key)
	sl, ok := decodeSlice(req.State)
	if !ok {
		sl = slice{From: span.From}
	}
	rows, next, err := slicedRows(read, span, sl, req.Size)
	if !errors.Is(err, errNoStart) {
		return rows, next, err
	}
	start, err := st.partitionStart(ctx, rng)
	if err != nil {
		return nil, nil, err
	}
	return slicedRows(read, span, start, req.Size)
}

// spanReader reads up to size rows of stmt within a span (its binds: key, then the
// span), and whether more follow.
func (st *Store) spanReader(ctx context.Context, stmt *cql.Statement, key []any) rowsReader {
	return func(sp Span, size int) ([]UnspentRow, bool, error) {
		args := append(append([]any{}, key...), sp.binds()...)
		rows, next, err := readRows[UnspentRow](ctx, st, stmt, args, PageRequest{Size: size})
		for err == nil && len(rows) == 0 && len(next) > 0 { // an empty page with more: read on
			rows, next, err = readRows[UnspentRow](ctx, st, stmt, args, PageRequest{Size: size, State: next})
		}
		return rows, len(next) > 0, err
	}
}

// partitionStart is the first slice of a read from the start of partition rng: the rows
// created before its first indexed milestone (outputs a bootstrap or a later start wrote),
// then slices from that milestone's time on. With no milestone of it indexed, the first
// slice is all time up to the horizon, halved until a read passes.
func (st *Store) partitionStart(ctx context.Context, rng int32) (slice, error) {
	first := uint32(max(rng, 0)) * st.ChunkSize
	if view, err := st.SyncView(ctx); err == nil {
		for _, r := range view.Synced {
			if r.To >= first {
				first = max(first, r.From)
				break
			}
		}
	}
	m, err := st.Milestone(ctx, first)
	if errors.Is(err, ErrNotFound) {
		return slice{End: sliceHorizon(), Width: sliceFirstWidth}, nil
	} else if err != nil {
		return slice{}, err
	}
	return slice{End: m.Timestamp, Width: sliceFirstWidth}, nil
}

// sliceHorizon is past the newest creation time a read can meet: a sliced read reads
// what lies beyond it at once.
func sliceHorizon() int64 { return time.Now().Add(24 * time.Hour).Unix() }

// slicedRows reads from sl until it has rows or the span ends, and the state to resume.
func slicedRows(read rowsReader, span Span, sl slice, size int) ([]UnspentRow, []byte, error) {
	end := span.To
	if end == (Position{}) {
		end = Position{CreatedAt: math.MaxInt64}
	}
	cut := false // the read before was aborted: the next empty slice keeps the width
	for less(sl.From, end) {
		to := end
		if sl.Width > 0 && sl.End < end.CreatedAt && sl.From.CreatedAt < sliceHorizon() {
			to = Position{CreatedAt: sl.End}
		}
		rows, more, err := read(Span{From: sl.From, To: to}, size)
		if tooManyTombstones(err) {
			if sl, err = narrower(sl, err); err != nil {
				return nil, nil, err
			}
			cut = true
			continue
		} else if err != nil {
			return nil, nil, err
		}
		if more { // the page is full: resume after its last row
			last := rows[len(rows)-1]
			sl.From = Position{CreatedAt: last.CreatedAt, OutputID: last.OutputID + "\x00"}
			return rows, sl.encode(), nil
		}
		sl, cut = sl.next(to, len(rows) == 0 && !cut), false
		if len(rows) > 0 {
			if !less(sl.From, end) {
				return rows, nil, nil
			}
			return rows, sl.encode(), nil
		}
	}
	return nil, nil, nil
}

// narrower is the slice to read after sl was aborted: the first slice of a read that was
// not sliced yet, or sl's first half; readErr when it cannot narrow.
func narrower(sl slice, readErr error) (slice, error) {
	if sl.Width == 0 {
		if sl.From.CreatedAt <= 0 {
			return sl, errors.Join(errNoStart, readErr)
		}
		sl.Width = sliceFirstWidth
		sl.End = sl.From.CreatedAt + sl.Width
		return sl, nil
	}
	length := sl.End - sl.From.CreatedAt
	if length <= 1 {
		return sl, readErr
	}
	sl.End = sl.From.CreatedAt + length/2
	sl.Width = min(sl.Width, length/2)
	return sl, nil
}

// next is the slice after one read to its end (to); grow doubles the width.
func (s slice) next(to Position, grow bool) slice {
	s.From = to
	if s.Width > 0 {
		if grow {
			s.Width = min(s.Width*2, sliceMaxWidth)
		}
		s.End = s.From.CreatedAt + s.Width
	}
	return s
}

// less orders positions as TIP-26 does: creation time, then output ID.
func less(a, b Position) bool {
	return a.CreatedAt < b.CreatedAt || a.CreatedAt == b.CreatedAt && a.OutputID < b.OutputID
}
