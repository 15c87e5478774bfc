package ingest

import (
	"math"
	"reflect"
	"runtime"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/store"
)

func TestSplitAtBlocks(t *testing.T) {
	gaps := []store.Range{{From: 1, To: 9}, {From: 15, To: 31}, {From: 40, To: 40}, {From: 4294967290, To: 4294967295}}
	got := slices.Collect(splitAtBlocks(gaps, 10))
	want := []store.Range{{From: 1, To: 9}, {From: 15, To: 19}, {From: 20, To: 29}, {From: 30, To: 31},
		{From: 40, To: 40}, {From: 4294967290, To: 4294967295}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("splitAtBlocks = %v, want %v", got, want)
	}
}

// A gap up to the last index is cut one piece at a time as the pieces are filled:
// taking the first pieces of [1, 4294967294] allocates next to nothing, where listing
// its 4.29 million blocks of 1000 would take about 200 MiB.
func TestSplitAtBlocksMakesPiecesAsFilled(t *testing.T) {
	gaps := []store.Range{{From: 1, To: math.MaxUint32 - 1}}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var first []store.Range
	for piece := range splitAtBlocks(gaps, 1000) {
		first = append(first, piece)
		if len(first) == 3 {
			break
		}
	}
	runtime.ReadMemStats(&after)
	if want := []store.Range{{From: 1, To: 999}, {From: 1000, To: 1999}, {From: 2000, To: 2999}}; !reflect.DeepEqual(first, want) {
		t.Fatalf("first pieces %v; want %v", first, want)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Fatalf("allocated %d KiB for three pieces; want under 1 MiB", grew>>10)
	}
}
