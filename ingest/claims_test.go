package ingest

import (
	"reflect"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/store"
)

func TestSplitAtBlocks(t *testing.T) {
	gaps := []store.Range{{From: 1, To: 9}, {From: 15, To: 31}, {From: 40, To: 40}, {From: 4294967290, To: 4294967295}}
	got := splitAtBlocks(gaps, 10)
	want := []store.Range{{From: 1, To: 9}, {From: 15, To: 19}, {From: 20, To: 29}, {From: 30, To: 31},
		{From: 40, To: 40}, {From: 4294967290, To: 4294967295}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("splitAtBlocks = %v, want %v", got, want)
	}
}
