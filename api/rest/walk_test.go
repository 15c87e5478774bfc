package rest

import (
	"context"
	"encoding/binary"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// fakeTable serves partitions of numbered rows the way Cassandra pages: a paging
// state is the offset of the next row, and a page that ends exactly at a partition's
// last row still returns a state (the next page is empty), as Cassandra may.
type fakeTable map[int32][]int

func (f fakeTable) fetch(_ context.Context, part int32, req store.PageRequest) ([]int, []byte, error) {
	rows := f[part]
	from := 0
	if len(req.State) > 0 {
		from = int(binary.BigEndian.Uint32(req.State))
	}
	to := min(from+req.Size, len(rows))
	if to == len(rows) && to-from < req.Size {
		return rows[from:to], nil, nil
	}
	return rows[from:to], binary.BigEndian.AppendUint32(nil, uint32(to)), nil
}

// walkPages walks a list to its end with fresh inputs, as clients do, re-listing
// parts before each page (parts may change between pages).
func walkPages(t *testing.T, f fakeTable, parts func(page int) []int32, size int, keep func(*int) bool) []int {
	t.Helper()
	return readPages(t, size, func(in *Input, i int) (Page[int], error) {
		return Walk(context.Background(), in, parts(i), f.fetch, keep, func(r *int) int { return *r })
	})
}

// listedByPage is a partition list that changes between pages: page i lists lists[i],
// later pages the last of lists.
func listedByPage(lists ...[]int32) func(page int) []int32 {
	return func(page int) []int32 {
		return lists[min(page, len(lists)-1)]
	}
}

// readPages reads a list page by page to its end, each page from the cursor of the one
// before, and checks that no page is longer than size.
func readPages(t *testing.T, size int, read func(in *Input, i int) (Page[int], error)) []int {
	t.Helper()
	var all []int
	in := &Input{PageSize: size}
	for page := 0; page < 1000; page++ {
		p, err := read(in, page)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Items) > size {
			t.Fatalf("page %d: %d items > %d", page, len(p.Items), size)
		}
		all = append(all, p.Items...)
		if p.Cursor == "" {
			return all
		}
		c, err := DecodeCursor(p.Cursor, in.Hash)
		if err != nil {
			t.Fatalf("own cursor refused: %v", err)
		}
		in.Cursor = &c
	}
	t.Fatal("no last page")
	return nil
}

func TestWalkEveryRowOnce(t *testing.T) {
	// Partitions of 0, 1, 3, 4 and 5 rows (the empty one: a hint whose rows expired).
	f, want, n := fakeTable{}, []int(nil), 0
	for _, p := range []struct{ part, rows int32 }{{store.PendingRange, 0}, {9, 1}, {5, 3}, {4, 4}, {1, 5}} {
		f[p.part] = []int{}
		for range p.rows {
			f[p.part] = append(f[p.part], n)
			want = append(want, n)
			n++
		}
	}
	parts := func(int) []int32 { return []int32{1, 4, 5, 9, store.PendingRange, 4} } // unsorted, a duplicate
	for size := 1; size <= n+1; size++ {
		if got := walkPages(t, f, parts, size, nil); !slices.Equal(got, want) {
			t.Errorf("page size %d: %v, want %v", size, got, want)
		}
	}
	even := func(r *int) bool { return *r%2 == 0 }
	for size := 1; size <= 4; size++ {
		got := walkPages(t, f, parts, size, even)
		if !slices.Equal(got, slices.DeleteFunc(slices.Clone(want), func(r int) bool { return !even(&r) })) {
			t.Errorf("filtered, page size %d: %v", size, got)
		}
	}
}

// TestWalkPartitionsChange: a partition that disappears between pages (expired
// pending rows) or appears (a new milestone range) neither repeats nor loses rows of
// the partitions that stay.
func TestWalkPartitionsChange(t *testing.T) {
	f := fakeTable{7: {1, 2, 3}, 5: {4, 5, 6}, 2: {7, 8, 9}}
	// 8 appears on page 1; 5 is gone from page 2 on, while the cursor points into it.
	listed := listedByPage([]int32{7, 5, 2}, []int32{8, 7, 5, 2}, []int32{8, 7, 2})
	got := walkPages(t, f, listed, 2, nil)
	if want := []int{1, 2, 3, 4, 7, 8, 9}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestWalkStopsAfterBoundedReads(t *testing.T) {
	f := fakeTable{0: make([]int, 100)} // all zeros: a filter that drops everything
	in := &Input{PageSize: 3}
	p, err := Walk(context.Background(), in, OnePartition, f.fetch, func(r *int) bool { return *r != 0 },
		func(r *int) int { return *r })
	if err != nil || len(p.Items) != 0 || p.Cursor == "" {
		t.Fatalf("page %+v, err %v: want an empty page with a cursor after %d reads", p, err, maxReadsPerPage)
	}
	c, _ := DecodeCursor(p.Cursor, in.Hash)
	if got := int(binary.BigEndian.Uint32(c.State)); got != 3*maxReadsPerPage {
		t.Errorf("cursor at row %d, want %d", got, 3*maxReadsPerPage)
	}
}

func TestCursorRoundTrip(t *testing.T) {
	for _, c := range []Cursor{{Partition: 4, State: []byte{1, 2}}, {Partition: store.PendingRange}, {Partition: 0, State: make([]byte, MaxStateBytes)}} {
		s := EncodeCursor(c, QueryHash{9})
		back, err := DecodeCursor(s, QueryHash{9})
		if err != nil || back.Partition != c.Partition || !slices.Equal(back.State, c.State) {
			t.Errorf("%+v: decoded %+v, %v", c, back, err)
		}
		if _, err := DecodeCursor(s, QueryHash{8}); err == nil {
			t.Errorf("%+v: accepted for another query", c)
		}
	}
}
