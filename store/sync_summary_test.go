package store

import (
	"context"
	"slices"
	"testing"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// The summary GET /sync serves equals the sync table's full read (Status) while two
// nodes write, before and after they flush, after a resync deletes rows (gaps) and
// after those are rewritten.
func TestSyncSummaryMatchesStatus(t *testing.T) {
	ctx := context.Background()
	sess, _ := testcontainers.NewKeyspaceOrSkip(t)
	a, b := New(sess, 10), New(sess, 10) // two indexer nodes sharing the keyspace
	write := func(st *Store, from, to uint32) {
		t.Helper()
		for i := from; i <= to; i++ {
			if err := st.WriteSync(ctx, i, 1, 0); err != nil {
				t.Fatal(err)
			}
		}
	}
	flush := func(sts ...*Store) {
		t.Helper()
		for _, st := range sts {
			if err := st.FlushSyncSummary(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	same := func(step string, wantGaps int) {
		t.Helper()
		want, err := a.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got, err := b.SyncView(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got.Oldest != want.Oldest || got.Newest != want.Newest || !slices.Equal(got.Synced, want.Synced) ||
			!slices.Equal(got.Gaps, want.Gaps) || got.Truncated {
			t.Fatalf("%s: summary %+v, table %+v", step, got, want)
		}
		if len(want.Gaps) != wantGaps {
			t.Fatalf("%s: %d gaps %v, want %d", step, len(want.Gaps), want.Gaps, wantGaps)
		}
	}
	if v, err := a.SyncView(ctx); err != nil || len(v.Synced) != 0 {
		t.Fatalf("empty keyspace: %+v, %v", v, err)
	}
	write(a, 1, 25)
	write(b, 30, 45)
	same("before any flush", 1)
	flush(a, b)
	same("flushed", 1)
	s, _, err := a.readSummary(ctx)
	if err != nil || s.Newest != 45 || len(s.Ranges) != 2 {
		t.Fatalf("stored summary %+v, %v", s, err)
	}

	write(a, 46, 48) // not flushed: served from the rows past the high mark
	same("past the high mark", 1)
	if s, _, _ := a.readSummary(ctx); s.Newest != 45 {
		t.Fatalf("summary moved without a flush: %+v", s)
	}

	for _, i := range []uint32{5, 6, 7, 8, 40} { // a resync, as POST /admin/resync runs it
		if err := b.Unsync(ctx, i); err != nil {
			t.Fatal(err)
		}
	}
	flush(b)
	same("after a resync", 3)
	write(a, 5, 8) // the indexer rewrites the range
	flush(a, b)
	same("rewritten", 2)
	write(b, 26, 29)
	write(a, 40, 40)
	var g errgroup.Group // both nodes flush at once: one compare-and-set loses and retries
	g.Go(func() error { return a.FlushSyncSummary(ctx) })
	g.Go(func() error { return b.FlushSyncSummary(ctx) })
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	if s, _, _ := a.readSummary(ctx); !slices.Equal(s.Ranges, []Range{{1, 48}}) {
		t.Fatalf("after concurrent flushes the stored summary is %+v", s)
	}
	same("filled", 0)
}

// The summary keeps the newest ranges when there are too many, and says so.
func TestSyncSummaryCap(t *testing.T) {
	var rs []Range
	for i := range uint32(maxSummaryRanges + 5) {
		rs = append(rs, Range{10 + 3*i, 11 + 3*i})
	}
	s := capped(rs, syncSummary{})
	if !s.Truncated || len(s.Ranges) != maxSummaryRanges || s.Ranges[0] != rs[5] || s.Oldest != 10 && s.Oldest != rs[5].From {
		t.Fatalf("capped: truncated %v, %d ranges from %v, oldest %d", s.Truncated, len(s.Ranges), s.Ranges[0], s.Oldest)
	}
	if s.Newest != rs[len(rs)-1].To {
		t.Fatalf("newest %d", s.Newest)
	}
	again := capped(s.Ranges, syncSummary{Oldest: 10, Truncated: true})
	if !again.Truncated || again.Oldest != 10 {
		t.Fatalf("a truncated summary forgot its oldest: %+v", again.Oldest)
	}
}

// Range arithmetic: merging touching ranges, cutting windows, the holes between.
func TestSyncRanges(t *testing.T) {
	got := normalize([]Range{{7, 9}, {1, 3}, {4, 5}, {8, 12}})
	if !slices.Equal(got, []Range{{1, 5}, {7, 12}}) {
		t.Fatalf("normalize: %v", got)
	}
	if cut := subtract(got, Range{3, 8}); !slices.Equal(cut, []Range{{1, 2}, {9, 12}}) {
		t.Fatalf("subtract: %v", cut)
	}
	if cut := subtract(got, Range{0, 20}); len(cut) != 0 {
		t.Fatalf("subtract all: %v", cut)
	}
	if g := gapsBetween(got); !slices.Equal(g, []Range{{6, 6}}) {
		t.Fatalf("gaps: %v", g)
	}
	if r := rangesOf([]uint32{5, 3, 4, 9}); !slices.Equal(r, []Range{{3, 5}, {9, 9}}) {
		t.Fatalf("rangesOf: %v", r)
	}
}

// A keyspace synced before the summary existed is read exactly (rows past an absent
// summary); a sync row written below the high mark by a node that died before its
// flush is missing from the summary until RebuildSyncSummary, which restores it.
func TestSyncSummaryRebuild(t *testing.T) {
	ctx := context.Background()
	st := nodeStore(t)
	unsummarised := func(from, to uint32) { // a sync row nobody gathered: an old binary, or a crash
		t.Helper()
		for i := from; i <= to; i++ {
			if err := st.s.Exec(ctx, cql.InsertSync, st.RangeID(i), int32(i), int8(1), unset); err != nil {
				t.Fatal(err)
			}
		}
	}
	unsummarised(3, 12)
	unsummarised(15, 21)
	if v, err := st.SyncView(ctx); err != nil || !slices.Equal(v.Synced, []Range{{3, 12}, {15, 21}}) {
		t.Fatalf("without a summary: %+v, %v", v, err)
	}
	if err := st.FlushSyncSummary(ctx); err != nil { // stores what lies past the (absent) high mark
		t.Fatal(err)
	}
	unsummarised(13, 13)
	v, err := st.SyncView(ctx)
	if err != nil || !slices.Equal(v.Synced, []Range{{3, 12}, {15, 21}}) {
		t.Fatalf("a row below the high mark shows before any rebuild: %+v, %v", v, err)
	}
	full, err := st.RebuildSyncSummary(ctx, "test")
	if err != nil || !slices.Equal(full.Synced, []Range{{3, 13}, {15, 21}}) {
		t.Fatalf("rebuild read %+v, %v", full, err)
	}
	if v, err := st.SyncView(ctx); err != nil || !slices.Equal(v.Synced, full.Synced) || !slices.Equal(v.Gaps, []Range{{14, 14}}) {
		t.Fatalf("after the rebuild: %+v, %v", v, err)
	}
}

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
