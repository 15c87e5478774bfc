package ledgerquery

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// memReader holds rows per (stream, partition) in memory; partition rng's rows are
// created at times [10*rng, 10*rng+9], its boundary is 10*rng unless hidden.
type memReader struct {
	rows   map[Stream]map[int32][]store.UnspentRow
	hidden map[int32]bool // boundaries reported unknown
	reads  int
	sizes  []int // each read's req.Size
}

func (m *memReader) Rows(_ context.Context, s Stream, rng int32, span store.Span, req store.PageRequest) ([]store.UnspentRow, []byte, error) {
	m.reads++
	m.sizes = append(m.sizes, req.Size)
	var in []store.UnspentRow
	for _, r := range m.rows[s][rng] {
		p := PositionOf(&r)
		if !Less(p, span.From) && (span.To == (store.Position{}) || Less(p, span.To)) {
			in = append(in, r)
		}
	}
	start := 0
	if req.State != nil {
		fmt.Sscan(string(req.State), &start)
	}
	end := min(len(in), start+req.Size)
	var state []byte
	if end < len(in) {
		state = []byte(fmt.Sprint(end))
	}
	return in[start:end], state, nil
}

func (m *memReader) Boundary(_ context.Context, rng int32) (int64, bool, error) {
	return int64(10 * rng), !m.hidden[rng], nil
}

func id(n int) string { return fmt.Sprintf("0x%068x", n) }

// TestReadPagesEveryRowOnce: whatever the page size and budget, following Next visits
// every matching row of the union of the streams exactly once, in TIP-26 order.
func TestReadPagesEveryRowOnce(t *testing.T) {
	rnd := rand.New(rand.NewSource(7))
	m := &memReader{rows: map[Stream]map[int32][]store.UnspentRow{}, hidden: map[int32]bool{3: true, 6: true}}
	streams := []Stream{{Kind: "basic", Address: "a", Role: "address"}, {Kind: "basic", Address: "a", Role: "sender"},
		{Kind: "nft", Address: "a", Role: "address"}}
	var all []store.UnspentRow
	for n := range 300 {
		rng := int32(rnd.Intn(9))
		r := store.UnspentRow{CreatedAt: int64(10*rng) + int64(rnd.Intn(10)), OutputID: id(rnd.Intn(1 << 20)),
			Amount: int64(n % 3)}
		in := rnd.Perm(len(streams))[:1+rnd.Intn(2)] // in one or two streams
		for _, i := range in {
			if m.rows[streams[i]] == nil {
				m.rows[streams[i]] = map[int32][]store.UnspentRow{}
			}
			m.rows[streams[i]][rng] = append(m.rows[streams[i]][rng], r)
		}
		all = append(all, r)
	}
	for _, parts := range m.rows {
		for _, rows := range parts {
			sort.Slice(rows, func(i, j int) bool { return Less(PositionOf(&rows[i]), PositionOf(&rows[j])) })
		}
	}
	match := func(r *store.UnspentRow) bool { return r.Amount != 0 }
	want := map[store.Position]bool{}
	for _, r := range all {
		if match(&r) {
			want[PositionOf(&r)] = true
		}
	}
	var srcs []Source
	for _, s := range streams {
		srcs = append(srcs, Source{Stream: s, Partitions: []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}})
	}
	for _, size := range []int{1, 7, 100} {
		for _, budget := range []Budget{{Rows: 1, Partitions: 1}, {Rows: 5, Partitions: 2}, {Rows: 1000, Partitions: 100}} {
			t.Run(fmt.Sprintf("size%d/rows%d", size, budget.Rows), func(t *testing.T) {
				var got []store.Position
				span := store.Span{}
				for pages := 0; ; pages++ {
					if pages > 10000 {
						t.Fatal("no end")
					}
					p, err := Read(context.Background(), m, Query{Sources: srcs, Span: span, Match: match,
						PageSize: size, Fetch: 3, Budget: budget})
					if err != nil {
						t.Fatal(err)
					}
					if len(p.Items) > size {
						t.Fatalf("%d items on a page of %d", len(p.Items), size)
					}
					for _, r := range p.Items {
						got = append(got, PositionOf(&r))
					}
					if p.Next == nil {
						break
					}
					if !Less(span.From, *p.Next) {
						t.Fatalf("next %v does not move past %v", *p.Next, span.From)
					}
					span.From = *p.Next
				}
				if !slices.IsSortedFunc(got, func(a, b store.Position) int {
					if Less(a, b) {
						return -1
					}
					return 1
				}) || len(got) != len(want) {
					t.Fatalf("got %d positions (sorted, unique: %v), want %d", len(got),
						slices.IsSortedFunc(got, func(a, b store.Position) int {
							if Less(a, b) {
								return -1
							}
							return 1
						}), len(want))
				}
				for _, p := range got {
					if !want[p] {
						t.Fatalf("%v is not a match", p)
					}
				}
			})
		}
	}
}

func TestCursorRoundTrip(t *testing.T) {
	p := store.Position{CreatedAt: 0x6397e6a1, OutputID: "0x" + fmt.Sprintf("%068x", 0xabc)}
	c := EncodeCursor(p, 7)
	if len(c) != 78 || c[:8] != "6397e6a1" {
		t.Fatalf("cursor %q", c)
	}
	got, size, err := DecodeCursor(c)
	if err != nil || got != p || size != 7 {
		t.Fatalf("decode %q: %v %d %v", c, got, size, err)
	}
	for _, bad := range []string{"", c[:77], c + "1x", c[:76] + ".0", c[:76] + ".", c[:76] + ".-1", c[:76] + ".07",
		"zz" + c[2:], c[:76]} {
		if _, _, err := DecodeCursor(bad); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
	if s := Successor(store.Position{CreatedAt: 5, OutputID: "0x" + fmt.Sprintf("%068x", 0x19)}); s.OutputID[68:] != "1a" {
		t.Errorf("successor %v", s)
	}
	top := store.Position{CreatedAt: 5, OutputID: "0x" + fmt.Sprintf("%068s", "")}
	top.OutputID = "0x" + string(slices.Repeat([]byte("f"), 68))
	if s := Successor(top); s.CreatedAt != 6 || !Less(top, s) {
		t.Errorf("successor of the last ID %v", s)
	}
}

// TestEmptyPageStretchesItsBudget: a page that found nothing yet reads up to
// emptyPageStretch times its budget before it ends empty with a cursor (wallets such as
// iota.js's addressBalance stop at an empty page), and no further.
func TestEmptyPageStretchesItsBudget(t *testing.T) {
	m := &memReader{rows: map[Stream]map[int32][]store.UnspentRow{}}
	s := Stream{Kind: "basic", Address: "a", Role: "address"}
	m.rows[s] = map[int32][]store.UnspentRow{}
	var parts []int32
	const empty = 20 // partitions whose rows do not match, before the one that does
	for rng := range int32(empty + 1) {
		parts = append(parts, rng)
		m.rows[s][rng] = []store.UnspentRow{{CreatedAt: int64(10 * rng), OutputID: id(int(rng)), Amount: int64(rng / empty)}}
	}
	match := func(r *store.UnspentRow) bool { return r.Amount != 0 }
	read := func(b Budget) Page {
		p, err := Read(context.Background(), m, Query{Sources: []Source{{Stream: s, Partitions: parts}},
			Match: match, PageSize: 10, Fetch: 10, Budget: b})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if p := read(Budget{Rows: 1000, Partitions: 3}); len(p.Items) != 1 || p.Next != nil {
		t.Errorf("budget of 3 partitions, %d empty ones first: %d items, next %v; want the match, no next",
			empty, len(p.Items), p.Next)
	}
	if p := read(Budget{Rows: 1000, Partitions: 2}); len(p.Items) != 0 || p.Next == nil || p.Partitions > 2*emptyPageStretch {
		t.Errorf("budget of 2 partitions (16 stretched), %d empty ones first: %d items, next %v, %d partitions; "+
			"want an empty page with a cursor after at most %d", empty, len(p.Items), p.Next, p.Partitions, 2*emptyPageStretch)
	}
}

// TestReadsGrowFromWhatThePageNeeds: a page's first read asks for the rows it needs
// (one more, to know whether there is a next page), each later read for four times as
// many, up to Fetch: a page of rows that all match costs one small read however many rows
// the partition holds, a page of rare matches reaches Fetch-sized reads within a few.
func TestReadsGrowFromWhatThePageNeeds(t *testing.T) {
	s := Stream{Kind: "basic", Address: "a", Role: "address"}
	var rows []store.UnspentRow
	for n := range 5000 {
		rows = append(rows, store.UnspentRow{CreatedAt: 1 + int64(n)/1000, OutputID: id(n), Amount: int64(n % 500)})
	}
	read := func(match func(*store.UnspentRow) bool) (*memReader, Page) {
		m := &memReader{rows: map[Stream]map[int32][]store.UnspentRow{s: {0: rows}}}
		p, err := Read(context.Background(), m, Query{Sources: []Source{{Stream: s, Partitions: []int32{0}}},
			Match: match, PageSize: 20, Fetch: 1000, Budget: Budget{Rows: 10000, Partitions: 48}})
		if err != nil {
			t.Fatal(err)
		}
		return m, p
	}
	m, p := read(func(*store.UnspentRow) bool { return true })
	if !slices.Equal(m.sizes, []int{21}) || len(p.Items) != 20 || p.Next == nil {
		t.Errorf("every row matches: reads of %v, %d items, next %v; want one read of 21, 20 items and a next", m.sizes, len(p.Items), p.Next)
	}
	m, p = read(func(r *store.UnspentRow) bool { return r.Amount == 0 }) // 1 row in 500, the first among them: 20 more needed
	if want := []int{21, 80, 320, 1000, 1000, 1000, 1000, 1000}; !slices.Equal(m.sizes, want) || len(p.Items) != 10 || p.Next != nil {
		t.Errorf("1 row in 500 matches: reads of %v, %d items, next %v; want reads of %v, 10 items, no next", m.sizes, len(p.Items), p.Next, want)
	}
}
