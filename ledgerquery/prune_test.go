package ledgerquery

import (
	"context"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// partitionLog is a memReader that records the partitions it reads.
type partitionLog struct {
	*memReader
	read []int32
}

func (p *partitionLog) Rows(ctx context.Context, s Stream, rng int32, span store.Span, req store.PageRequest) ([]store.UnspentRow, []byte, error) {
	p.read = append(p.read, rng)
	return p.memReader.Rows(ctx, s, rng, span, req)
}

// A page over [25, 50) reads partitions 2, 3 and 4 only (partition r holds times
// 10r..10r+9): 0 and 1 end before the start, 5 and later begin at or after the end, as
// their boundaries say.
func TestReadSkipsPartitionsOutsideTheSpan(t *testing.T) {
	s := Stream{Kind: "basic", Address: "a", Role: "address"}
	m := &partitionLog{memReader: &memReader{rows: map[Stream]map[int32][]store.UnspentRow{s: {}}}}
	var parts []int32
	for rng := range int32(8) {
		parts = append(parts, rng)
		m.rows[s][rng] = []store.UnspentRow{{CreatedAt: int64(10*rng + 5), OutputID: id(int(rng))}}
	}
	p, err := Read(context.Background(), m, Query{Sources: []Source{{Stream: s, Partitions: parts}},
		Span:  store.Span{From: store.Position{CreatedAt: 25}, To: store.Position{CreatedAt: 50}},
		Match: func(*store.UnspentRow) bool { return true }, PageSize: 10, Fetch: 10, Budget: Budget{Rows: 100, Partitions: 100}})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(m.read)
	if want := []int32{2, 3, 4}; !slices.Equal(slices.Compact(m.read), want) || len(p.Items) != 3 {
		t.Fatalf("read partitions %v for %d items, want %v for 3", m.read, len(p.Items), want)
	}
}

// A page that holds no item yet may spend emptyPageStretch times its budget.
func TestEmptyPageLimitIsStretched(t *testing.T) {
	r := &run{q: Query{Budget: Budget{Rows: 10, Partitions: 3}}}
	if got, want := r.limit(), (Budget{Rows: 10 * emptyPageStretch, Partitions: 3 * emptyPageStretch}); got != want {
		t.Fatalf("limit of an empty page %+v, want %+v", got, want)
	}
	r.page.Items = []store.UnspentRow{{}}
	if got := r.limit(); got != r.q.Budget {
		t.Fatalf("limit of a page with an item %+v, want the budget", got)
	}
}

// Newest first, createdBefore 100 starts at the mirror of second 99 and createdAfter 50
// ends before the mirror of second 50.
func TestNewestSpanOfCreationTimes(t *testing.T) {
	s := newestSpan(&Filter{CreatedBefore: ptr(int64(100)), CreatedAfter: ptr(int64(50))}, nil)
	if s.From != mirror(store.Position{CreatedAt: 99}) || s.To.CreatedAt != mirrorBase-50 {
		t.Fatalf("newest span %+v, want from the mirror of 99 to the mirror of 50", s)
	}
}
