package rest

import (
	"context"
	"slices"
	"testing"
)

// walkSortedPages walks a list to its end with walkSorted, as walkPages does with walk.
func walkSortedPages(t *testing.T, f fakeTable, parts func(page int) []int32, size int, oldest bool) []int {
	t.Helper()
	return readPages(t, size, func(in *Input, i int) (Page[int], error) {
		return WalkSorted(context.Background(), in, parts(i), oldest, f.fetch, nil, func(r *int) int { return *r })
	})
}

// TestWalkSortedEveryRowOnce: oldest first, partitions ascending (unsorted, duplicated
// and empty ones listed), every row once for every page size; newest is walk's order.
func TestWalkSortedEveryRowOnce(t *testing.T) {
	f := fakeTable{1: {1, 2, 3, 4, 5}, 4: {6, 7, 8, 9}, 5: {10, 11, 12}, 9: {13}, 11: {}}
	parts := func(int) []int32 { return []int32{9, 4, 11, 1, 5, 4} }
	oldest := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}
	newest := []int{13, 10, 11, 12, 6, 7, 8, 9, 1, 2, 3, 4, 5}
	for size := 1; size <= 14; size++ {
		if got := walkSortedPages(t, f, parts, size, true); !slices.Equal(got, oldest) {
			t.Errorf("oldest, page size %d: %v", size, got)
		}
		if got := walkSortedPages(t, f, parts, size, false); !slices.Equal(got, newest) {
			t.Errorf("newest, page size %d: %v", size, got)
		}
	}
}

// TestWalkSortedPartitionsChange: oldest first, a partition that disappears while the
// cursor points into it resumes at the next newer one; one that appears is read in turn.
func TestWalkSortedPartitionsChange(t *testing.T) {
	f := fakeTable{2: {1, 2, 3}, 5: {4, 5, 6}, 7: {7, 8, 9}, 8: {10}}
	// 8 appears on page 1; 5 is gone from page 2 on, while the cursor points into it.
	listed := listedByPage([]int32{2, 5, 7}, []int32{2, 5, 7, 8}, []int32{2, 7, 8})
	if got, want := walkSortedPages(t, f, listed, 2, true), []int{1, 2, 3, 4, 7, 8, 9, 10}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
