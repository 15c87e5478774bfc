package store

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// BenchmarkSyncRead compares GET /sync's read of the sync summary (SyncView: the summary
// row and the rows past its high mark) with the full read of the sync table (Status)
// at few and many synced milestones, one keyspace each, a gap every 50 milestones.
// Figures are printed, not asserted.
func BenchmarkSyncRead(b *testing.B) {
	ctx := context.Background()
	lines := []string{fmt.Sprintf("%-10s %-8s %-14s %-14s %s", "synced", "ranges", "Status", "SyncView", "ratio")}
	for _, n := range []uint32{500, 10000} {
		st := syncedStore(b, 1000, n, func(i uint32) bool { return i%50 == 0 })
		full, err := st.RebuildSyncSummary(ctx, "bench")
		if err != nil {
			b.Fatal(err)
		}
		status := timeEach(b, syncReads, func() error { _, err := st.Status(ctx); return err })
		view := timeEach(b, syncReads, func() error { _, err := st.SyncView(ctx); return err })
		lines = append(lines, fmt.Sprintf("%-10d %-8d %-14s %-14s %.1fx", n, len(full.Synced),
			status.Round(time.Microsecond), view.Round(time.Microsecond), float64(status)/float64(view)))
	}
	b.Logf("mean time per read, %d reads each:\n%s", syncReads, strings.Join(lines, "\n"))
}

const syncReads = 20

// syncedStore is a store of chunkSize on a fresh keyspace with the sync rows syncRows
// writes for 1..n; with -short it skips the benchmark.
func syncedStore(b *testing.B, chunkSize, n uint32, gap func(uint32) bool) *Store {
	b.Helper()
	sess, _ := testcontainers.NewKeyspaceOrSkip(b)
	st := New(sess, chunkSize)
	if err := syncRows(context.Background(), st, n, gap); err != nil {
		b.Fatal(err)
	}
	return st
}

// syncRows writes sync rows for milestones 1..n but those gap names, as an old binary
// would (nothing summarised).
func syncRows(ctx context.Context, st *Store, n uint32, gap func(uint32) bool) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(64)
	for i := uint32(1); i <= n; i++ {
		if gap(i) {
			continue
		}
		g.Go(func() error { return st.s.Exec(gctx, cql.InsertSync, st.RangeID(i), int32(i), int8(1), unset) })
	}
	return g.Wait()
}

// timeEach is the mean duration of reads calls of f.
func timeEach(b *testing.B, reads int, f func() error) time.Duration {
	start := time.Now()
	for range reads {
		if err := f(); err != nil {
			b.Fatal(err)
		}
	}
	return time.Since(start) / time.Duration(reads)
}

// BenchmarkGapCheck compares the periodic gap check's read of the sync summary (GapsIn)
// with the full read of the sync rows it replaces (Synced), at 1k and 1M synced
// milestones (three one-milestone gaps each, sync rows written directly, chunk size
// 10000). It prints rows read and the mean time per gap check; nothing is asserted.
func BenchmarkGapCheck(b *testing.B) {
	ctx := context.Background()
	lines := []string{fmt.Sprintf("%-9s %-12s %-12s %-12s %s", "synced", "rows full", "full read", "rows summary", "summary read")}
	for _, n := range []uint32{1000, 1_000_000} {
		st := syncedStore(b, 10000, n, func(i uint32) bool { return i == n/4 || i == n/2 || i == 3*n/4 })
		if _, err := st.RebuildSyncSummary(ctx, "bench"); err != nil {
			b.Fatal(err)
		}
		var fullRows, summaryRows int
		full := timeEach(b, gapChecks, func() error {
			rows, err := st.Synced(ctx, 1, n)
			fullRows = len(rows)
			return err
		})
		summary := timeEach(b, gapChecks, func() (err error) { _, summaryRows, err = st.GapsIn(ctx, 1, n); return err })
		lines = append(lines, fmt.Sprintf("%-9d %-12d %-12s %-12d %s", n, fullRows, full.Round(time.Microsecond),
			summaryRows, summary.Round(time.Microsecond)))
	}
	b.Logf("mean per gap check, %d checks each:\n%s", gapChecks, strings.Join(lines, "\n"))
}

// gapChecks is how many gap checks BenchmarkGapCheck times at each size.
const gapChecks = 3
