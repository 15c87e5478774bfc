package store

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

var errFakeTombstones = errors.New("fake: too many tombstones")

// fakeSet is a partition of live and deleted rows in TIP-26 order whose reads fail past
// limit deleted rows, as the node's do.
type fakeSet struct {
	rows    []UnspentRow
	deleted []bool
	limit   int
	reads   int
	failed  int
	maxSeen int
}

func (f *fakeSet) read(span Span, size int) ([]UnspentRow, bool, error) {
	return f.scan(span, size, false)
}

// readNewest is read newest first.
func (f *fakeSet) readNewest(span Span, size int) ([]UnspentRow, bool, error) {
	return f.scan(span, size, true)
}

func (f *fakeSet) scan(span Span, size int, newest bool) ([]UnspentRow, bool, error) {
	f.reads++
	to := span.To
	if to == (Position{}) {
		to = Position{CreatedAt: math.MaxInt64}
	}
	var out []UnspentRow
	crossed := 0
	for n := range f.rows {
		i := n
		if newest {
			i = len(f.rows) - 1 - n
		}
		r := f.rows[i]
		p := Position{r.CreatedAt, r.OutputID}
		if less(p, span.From) || !less(p, to) {
			continue
		}
		if len(out) == size {
			return out, true, nil
		}
		if f.deleted[i] {
			if crossed++; crossed > f.limit {
				f.failed++
				return nil, false, errFakeTombstones
			}
			continue
		}
		out = append(out, r)
	}
	f.maxSeen = max(f.maxSeen, crossed)
	return out, false, nil
}

// newFakeSet: n rows over n/perSecond seconds from t0, each deleted with probability p.
func newFakeSet(seed uint64, n, perSecond int, p float64, limit int) *fakeSet {
	rnd := rand.New(rand.NewPCG(seed, 1))
	f := &fakeSet{limit: limit}
	for i := range n {
		f.rows = append(f.rows, UnspentRow{CreatedAt: 1_700_000_000 + int64(i/perSecond), OutputID: fmt.Sprintf("0x%08x", rnd.Uint32())})
		f.deleted = append(f.deleted, rnd.Float64() < p)
	}
	slices.SortFunc(f.rows, func(a, b UnspentRow) int {
		if less(Position{a.CreatedAt, a.OutputID}, Position{b.CreatedAt, b.OutputID}) {
			return -1
		}
		return 1
	})
	return f
}

// useFakeTombstones makes the fake reads' refusal the one reads are sliced for.
func useFakeTombstones(t *testing.T) {
	cqlRule := tooManyTombstones
	tooManyTombstones = func(err error) bool { return errors.Is(err, errFakeTombstones) }
	t.Cleanup(func() { tooManyTombstones = cqlRule })
}

// slicedCase is a partition of 20000 rows to page through: rows per second, the
// probability a row is deleted, the page size, and whether rows 5000-14999 are all
// deleted; edge is the test's own variant.
type slicedCase struct {
	name      string
	perSecond int
	p         float64
	size      int
	band      bool
	edge      bool
}

func (c slicedCase) set() *fakeSet {
	f := newFakeSet(7, 20000, c.perSecond, c.p, 500)
	if c.band {
		for i := 5000; i < 15000; i++ {
			f.deleted[i] = true
		}
	}
	return f
}

// TestSlicedReadsSurviveTombstones: pages read through slicedRows over a partition whose
// plain reads fail return every live row once, in order.
func TestSlicedReadsSurviveTombstones(t *testing.T) {
	useFakeTombstones(t)
	for _, tc := range []slicedCase{{"sparse live rows", 50, 0.99, 100, false, false},
		{"live rows around a deleted stretch", 5, 0.5, 7, true, false}, {"all deleted", 20, 1, 10, false, false},
		{"sparse, from the start of time", 50, 0.99, 100, false, true}} {
		f := tc.set()
		fromZero := tc.edge // no partition start known: slices halve from all time
		var want []UnspentRow
		for i, r := range f.rows {
			if !f.deleted[i] {
				want = append(want, r)
			}
		}
		span := Span{From: Position{CreatedAt: f.rows[0].CreatedAt}}
		sl := slice{From: span.From}
		if fromZero {
			span, sl = Span{}, slice{End: sliceHorizon(), Width: sliceFirstWidth}
		}
		checkSlicedPages(t, tc.name, f, want, sl, func(sl slice) ([]UnspentRow, []byte, error) {
			return slicedRows(f.read, span, sl, tc.size)
		})
	}
}

// checkSlicedPages follows read's pages from sl and checks they return want, with some
// read of f aborted on the way.
func checkSlicedPages(t *testing.T, name string, f *fakeSet, want []UnspentRow, sl slice,
	read func(slice) ([]UnspentRow, []byte, error)) {
	t.Helper()
	var got []UnspentRow
	pages := 0
	for ; pages < 100000; pages++ {
		rows, next, err := read(sl)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got = append(got, rows...)
		if next == nil {
			break
		}
		var ok bool
		if sl, ok = decodeSlice(next); !ok {
			t.Fatalf("%s: state %x does not decode", name, next)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: %d rows, want %d", name, len(got), len(want))
	}
	if f.failed == 0 {
		t.Errorf("%s: no read failed: the test shows nothing", name)
	}
	t.Logf("%s: %d pages, %d reads, %d failed, at most %d tombstones crossed by a read", name, pages+1,
		f.reads, f.failed, f.maxSeen)
}

// TestNewestSlicedReadsSurviveTombstones: newest-first pages over a partition whose plain
// reads fail return every live row within the span once, newest first.
func TestNewestSlicedReadsSurviveTombstones(t *testing.T) {
	useFakeTombstones(t)
	for _, tc := range []slicedCase{{"sparse live rows", 50, 0.99, 100, false, false},
		{"live rows around a deleted stretch", 5, 0.5, 7, true, false}, {"all deleted", 20, 1, 10, false, false},
		{"sparse, within bounds", 50, 0.99, 3, false, true}} {
		f := tc.set()
		span := Span{}
		if tc.edge { // the span ends before the last rows and starts after the first
			span = Span{From: Position{CreatedAt: f.rows[3000].CreatedAt}, To: Position{CreatedAt: f.rows[17000].CreatedAt}}
		}
		var want []UnspentRow
		for i := len(f.rows) - 1; i >= 0; i-- {
			p := Position{f.rows[i].CreatedAt, f.rows[i].OutputID}
			inSpan := !less(p, span.From) && (span.To == (Position{}) || less(p, span.To))
			if !f.deleted[i] && inSpan {
				want = append(want, f.rows[i])
			}
		}
		checkSlicedPages(t, tc.name, f, want, slice{From: span.To}, func(sl slice) ([]UnspentRow, []byte, error) {
			return slicedRowsNewest(f.readNewest, span, sl, tc.size)
		})
	}
}
