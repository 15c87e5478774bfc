package ledgerquery

import (
	"context"
	"errors"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// PartitionReader is what a page reads: rows of a stream in one partition, and the
// time partitions begin at. Answer reads the store through one (storeRows); tests of
// the merge give their own.
type PartitionReader interface {
	// Rows reads up to req.Size rows of s created in partition rng within span, in
	// TIP-26 order, and the paging state to read on (nil: the partition is done).
	Rows(ctx context.Context, s Stream, rng int32, span store.Span, req store.PageRequest) ([]store.UnspentRow, []byte, error)
	// Boundary is the creation time (unix seconds) of partition rng's first milestone,
	// ok false when unknown. Milestone times never decrease, so every row of partition
	// rng lies at or after it and every row of an earlier partition at or before it.
	Boundary(ctx context.Context, rng int32) (at int64, ok bool, err error)
}

// Source is a stream and the partitions that may hold its rows, ascending.
type Source struct {
	Stream     Stream
	Partitions []int32
}

// Budget bounds the reads of one page: rows read and partitions opened over all
// sources. Reads that make no progress (nothing consumed, no partition boundary
// passed) are not stopped by it: a page always moves its cursor forward.
type Budget struct {
	Rows       int
	Partitions int
}

// emptyPageStretch is how many times its budget a page may read while it has found
// nothing yet. iota.js's addressBalance stops at the first page without items, cursor or
// not, so an empty page with a cursor loses a wallet's outputs; stretched, a page of an
// address's outputs crosses hundreds of emptied partitions before one can be empty.
const emptyPageStretch = 8

// limit is the budget in force: stretched while the page holds no item.
func (r *run) limit() Budget {
	if len(r.page.Items) > 0 {
		return r.q.Budget
	}
	return Budget{Rows: r.q.Budget.Rows * emptyPageStretch, Partitions: r.q.Budget.Partitions * emptyPageStretch}
}

// Query is one page's request.
type Query struct {
	Sources  []Source
	Span     store.Span // Span.From is the page's start (the cursor)
	Match    func(*store.UnspentRow) bool
	PageSize int
	Fetch    int // rows per read, at most (the first reads ask for fewer: fetch)
	Budget   Budget
}

// Page is one page's answer: up to PageSize matching rows in TIP-26 order, and where
// the next page starts (nil: no more). A page cut short by the budget holds fewer rows
// and a Next all the same.
type Page struct {
	Items      []store.UnspentRow
	Next       *store.Position
	CutShort   bool
	RowsRead   int
	Partitions int
}

// run is one page being read.
type run struct {
	q        Query
	rd       PartitionReader
	srcs     []*stream
	page     Page
	last     *store.Position // the last position consumed
	stopAt   store.Position  // where the budget stopped the page
	boundary func(int32) (int64, bool)
	reads    int // reads issued so far
}

// stream is a source being read.
type stream struct {
	src   Source
	next  int // index of the next partition to open
	state []byte
	open  bool // a partition is open and has more pages (state)
	buf   []store.UnspentRow
	last  *store.Position // the last row read from this source
	done  bool
}

var errBudget = errors.New("page budget spent")

// Read reads one page. Partitions wholly before the span's start or after its end (by
// their boundaries) are skipped without reading them.
func Read(ctx context.Context, rd PartitionReader, q Query) (Page, error) {
	r := &run{q: q, rd: rd}
	bounds := map[int32]struct {
		at int64
		ok bool
	}{}
	var berr error
	r.boundary = func(rng int32) (int64, bool) {
		b, seen := bounds[rng]
		if !seen && berr == nil {
			b.at, b.ok, berr = rd.Boundary(ctx, rng)
			bounds[rng] = b
		}
		return b.at, b.ok
	}
	for _, src := range q.Sources {
		src.Partitions = r.prune(src.Partitions)
		r.srcs = append(r.srcs, &stream{src: src})
	}
	if berr != nil {
		return Page{}, berr
	}
	err := r.loop(ctx)
	switch {
	case errors.Is(err, errBudget):
		r.page.Next, r.page.CutShort = &r.stopAt, true
	case err != nil:
		return Page{}, err
	}
	return r.page, berr
}

// prune drops the partitions whose rows all lie outside the span.
func (r *run) prune(parts []int32) []int32 {
	var out []int32
	from, to := r.q.Span.From, r.q.Span.To
	for _, rng := range parts {
		if from.CreatedAt > 0 {
			if next, ok := r.boundary(rng + 1); ok && next < from.CreatedAt {
				continue // every row of rng is at or before next, before the start
			}
		}
		if to != (store.Position{}) {
			if at, ok := r.boundary(rng); ok && at >= to.CreatedAt {
				continue // every row of rng is at or after at, past the end
			}
		}
		out = append(out, rng)
	}
	return out
}

func (r *run) loop(ctx context.Context) error {
	for {
		for _, s := range r.srcs {
			if err := r.fill(ctx, s); err != nil {
				return err
			}
		}
		head := r.head()
		if head == nil {
			return nil
		}
		pos := PositionOf(head)
		row := *head
		for _, s := range r.srcs { // one output in several streams (roles) counts once
			if len(s.buf) > 0 && PositionOf(&s.buf[0]) == pos {
				s.buf = s.buf[1:]
			}
		}
		if r.q.Match(&row) {
			if len(r.page.Items) == r.q.PageSize {
				r.page.Next = &pos
				return nil
			}
			r.page.Items = append(r.page.Items, row)
		}
		r.last = &pos
	}
}

// head is the smallest buffered row, nil when every source is done.
func (r *run) head() *store.UnspentRow {
	var min *store.UnspentRow
	for _, s := range r.srcs {
		if len(s.buf) > 0 && (min == nil || Less(PositionOf(&s.buf[0]), PositionOf(min))) {
			min = &s.buf[0]
		}
	}
	return min
}

// fill reads until s has a buffered row or is done.
func (r *run) fill(ctx context.Context, s *stream) error {
	for len(s.buf) == 0 && !s.done {
		if !s.open && s.next == len(s.src.Partitions) {
			s.done = true
			return nil
		}
		if err := r.charge(ctx, !s.open); err != nil {
			return err
		}
		if !s.open {
			s.next++
			r.page.Partitions++
		}
		rows, state, err := r.rd.Rows(ctx, s.src.Stream, s.src.Partitions[s.next-1], r.q.Span,
			store.PageRequest{Size: r.fetch(), State: s.state})
		r.reads++
		if err != nil {
			return err
		}
		r.page.RowsRead += len(rows)
		s.buf, s.state, s.open = rows, state, len(state) > 0
		if len(rows) > 0 {
			p := PositionOf(&rows[len(rows)-1])
			s.last = &p
		}
	}
	return nil
}

// fetch is the size of the next read: first the rows the page still needs (one more,
// to know whether a next page exists), four times that for each read after it, at most
// Fetch, within the rows left. When most rows match, the first read is all a page
// needs, so a page of an address costs the same whether it holds few outputs or
// thousands, instead of growing slower with the chain as a fixed large read would. When
// few match, reads grow to Fetch within a few round trips.
func (r *run) fetch() int {
	left := r.limit().Rows - r.page.RowsRead
	want := r.q.Fetch
	if need := r.q.PageSize + 1 - len(r.page.Items); need > 0 {
		want = min(want, need<<min(2*r.reads, 30))
	}
	return max(1, min(want, left))
}

// charge checks the budget before a read (opening a partition when opening). A spent
// budget stops the page only where the next page would start past this one's start.
func (r *run) charge(ctx context.Context, opening bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b := r.limit()
	spent := r.page.RowsRead >= b.Rows || (opening && r.page.Partitions >= b.Partitions)
	if !spent {
		return nil
	}
	at := r.resume()
	if !Less(r.q.Span.From, at) {
		return nil
	}
	r.stopAt = at
	return errBudget
}

// resume is where the next page starts if this one stops now: past every consumed
// position and no further than any source's next unread row.
func (r *run) resume() store.Position {
	at := r.q.Span.From
	if r.last != nil {
		at = Successor(*r.last)
	}
	low, known := store.Position{}, true
	for _, s := range r.srcs {
		if s.done || (len(s.buf) == 0 && !s.open && s.next == len(s.src.Partitions)) {
			continue // nothing left to read
		}
		b, ok := r.lowest(s)
		switch {
		case !ok:
			known = false
		case low == (store.Position{}) || Less(b, low):
			low = b
		}
	}
	if known && low != (store.Position{}) && Less(at, low) {
		at = low
	}
	return at
}

// lowest is a lower bound of s's unread rows (ok false: unknown).
func (r *run) lowest(s *stream) (store.Position, bool) {
	switch {
	case len(s.buf) > 0:
		return PositionOf(&s.buf[0]), true
	case s.open && s.last != nil:
		return Successor(*s.last), true
	case s.open:
		return store.Position{}, false
	}
	at, ok := r.boundary(s.src.Partitions[s.next])
	return store.Position{CreatedAt: at}, ok
}
