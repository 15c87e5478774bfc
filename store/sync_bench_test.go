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
	if testing.Short() {
		b.Skip("needs a Cassandra node (-short)")
	}
	ctx := context.Background()
	lines := []string{fmt.Sprintf("%-10s %-8s %-14s %-14s %s", "synced", "ranges", "Status", "SyncView", "ratio")}
	for _, n := range []uint32{500, 10000} {
		sess, _ := testcontainers.NewKeyspace(b)
		st := New(sess, 1000)
		if err := syncRows(ctx, st, n); err != nil {
			b.Fatal(err)
		}
		full, err := st.RebuildSyncSummary(ctx, "bench")
		if err != nil {
			b.Fatal(err)
		}
		status := timeEach(b, func() error { _, err := st.Status(ctx); return err })
		view := timeEach(b, func() error { _, err := st.SyncView(ctx); return err })
		lines = append(lines, fmt.Sprintf("%-10d %-8d %-14s %-14s %.1fx", n, len(full.Synced),
			status.Round(time.Microsecond), view.Round(time.Microsecond), float64(status)/float64(view)))
	}
	b.Logf("mean time per read, %d reads each:\n%s", syncReads, strings.Join(lines, "\n"))
}

const syncReads = 20

// syncRows writes sync rows for milestones 1..n but every 50th, as an old binary would
// (nothing summarised).
func syncRows(ctx context.Context, st *Store, n uint32) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(32)
	for i := uint32(1); i <= n; i++ {
		if i%50 == 0 {
			continue
		}
		g.Go(func() error { return st.s.Exec(gctx, cql.InsertSync, st.RangeID(i), int32(i), int8(1), unset) })
	}
	return g.Wait()
}

// timeEach is the mean duration of syncReads calls of f.
func timeEach(b *testing.B, f func() error) time.Duration {
	start := time.Now()
	for range syncReads {
		if err := f(); err != nil {
			b.Fatal(err)
		}
	}
	return time.Since(start) / syncReads
}
