package store

import (
	"context"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// GapsIn finds the gaps the sync rows have: from the summary and the rows past its high
// mark, and from the sync rows when there is no summary yet.
func TestGapsInMatchesSyncRows(t *testing.T) {
	st := nodeStore(t)
	ctx := context.Background()
	if err := syncRows(ctx, st, 60, func(i uint32) bool { return i%25 == 0 }); err != nil {
		t.Fatal(err)
	}
	assertGapsIn(t, st, 1, 70, 58) // no summary: the sync rows
	if _, err := st.RebuildSyncSummary(ctx, "test"); err != nil {
		t.Fatal(err)
	}
	for _, i := range []uint32{63, 64} { // past the summary's high mark, not summarised
		if err := st.s.Exec(ctx, cql.InsertSync, st.RangeID(i), int32(i), int8(1), unset); err != nil {
			t.Fatal(err)
		}
	}
	assertGapsIn(t, st, 1, 70, 1+2)
}

func assertGapsIn(t *testing.T, st *Store, from, to uint32, wantRows int) {
	t.Helper()
	got, rows, err := st.GapsIn(context.Background(), from, to)
	if err != nil {
		t.Fatal(err)
	}
	synced, err := st.Synced(context.Background(), from, to)
	if err != nil {
		t.Fatal(err)
	}
	if want := Gaps(synced, from, to); !slices.Equal(got, want) || rows != wantRows {
		t.Fatalf("GapsIn = %v after %d rows, want %v after %d", got, rows, want, wantRows)
	}
}
