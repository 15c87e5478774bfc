package ingest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// viewBenchConcurrency is the plain writer's pool in both keyspaces (BenchmarkIngest's
// best pool size on a single node is in this range).
const viewBenchConcurrency = 64

// viewBenchRounds: each keyspace kind is written this many times, alternating, and the
// best round of each counts, so that a burst of load from elsewhere hits both alike.
const viewBenchRounds = 2

// BenchmarkViewCost writes the rows BenchmarkIngest prebuilds (its sim chain) with one
// plain writer into fresh keyspaces with the full schema (every materialized view, as
// the migrations make it) and into fresh keyspaces whose views were dropped (base tables
// only), alternating, and prints what the views cost: the view rows the node maintained
// (counted in each view afterwards), the write amplification and the throughput ratio.
func BenchmarkViewCost(b *testing.B) {
	testcontainers.SkipShort(b)
	ctx := context.Background()
	src := sim.New(sim.Options{Seed: 42, Tip: benchTip, MessagesPerMilestone: 12, MilestoneInterval: 20 * time.Minute})
	rows := prebuild(b, src)
	b.ResetTimer()
	b.StopTimer()
	for range b.N {
		var with, without []writerFigures
		var counts []viewCount
		var all []writerFigures
		for round := range viewBenchRounds {
			withViews := func() {
				st, cfg := storetest.New(b, benchChunk)
				with = append(with, writeRows(ctx, b, st, cfg, rows, viewBenchConcurrency, fmt.Sprintf("round %d, with views", round+1)))
				all = append(all, with[len(with)-1])
				counts = countViewRows(ctx, b, cfg)
			}
			baseOnly := func() {
				st, cfg := storetest.NewWithoutViews(b, benchChunk)
				without = append(without, writeRows(ctx, b, st, cfg, rows, viewBenchConcurrency, fmt.Sprintf("round %d, base tables only", round+1)))
				all = append(all, without[len(without)-1])
			}
			if round%2 == 0 { // alternate which goes first: the first write of a run warms the node up
				withViews()
				baseOnly()
			} else {
				baseOnly()
				withViews()
			}
		}
		reportViewCost(b, rows, counts, slices.MaxFunc(with, byRate), slices.MaxFunc(without, byRate), all)
	}
}

// viewCount is the number of rows in one view after a write.
type viewCount struct {
	view string
	rows int64
}

func countViewRows(ctx context.Context, b *testing.B, cfg cql.Config) []viewCount {
	b.Helper()
	s, err := cql.Open(cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var out []viewCount
	for _, v := range cql.MaterializedViews {
		var n int64 // a full scan: the benchmark's keyspace is small
		if err := s.Gocql().Query("SELECT COUNT(*) FROM " + v.Name).WithContext(ctx).Scan(&n); err != nil {
			b.Fatalf("count %s: %v", v.Name, err)
		}
		out = append(out, viewCount{v.Name, n})
	}
	slices.SortFunc(out, func(a, b viewCount) int { return int(b.rows - a.rows) })
	return out
}

func reportViewCost(b *testing.B, rows *prebuilt, counts []viewCount, with, without writerFigures, all []writerFigures) {
	base := rows.count()
	var viewRows int64
	parts := make([]string, 0, len(counts))
	for _, c := range counts {
		viewRows += c.rows
		parts = append(parts, fmt.Sprintf("%s %d", c.view, c.rows))
	}
	bases := map[string]bool{}
	for _, v := range cql.MaterializedViews {
		bases[v.Base] = true
	}
	touching := 0
	for _, w := range rows.writes {
		if bases[w.Table()] {
			touching++
		}
	}
	amp := float64(int64(base)+viewRows) / float64(base)
	ratio := with.rowsPerSec() / without.rowsPerSec()
	b.ReportMetric(float64(viewRows), "view-rows")
	b.ReportMetric(amp, "amplification")
	b.ReportMetric(with.rowsPerSec(), "rows/s-with-views")
	b.ReportMetric(without.rowsPerSec(), "rows/s-without-views")
	b.ReportMetric(ratio, "with/without")
	lines := []string{fmt.Sprintf("%-30s %8s %8s %10s %11s %11s", "keyspace", "rows", "seconds", "rows/s", "p50", "p99")}
	for _, f := range all {
		lines = append(lines, f.line(f.name))
	}
	// Printed, not logged: the testing package keeps only 10 lines of a benchmark's log.
	fmt.Printf("BenchmarkViewCost: %d milestones, plain writer (%d goroutines, one statement per write), best of %d rounds each\n"+
		"base rows written: %d (%d of them to the %d tables with views: a read-before-write each)\n"+
		"view rows maintained by the node: %d in %d views (%s)\n"+
		"write amplification (base+view)/base = %.2f\n%s\n"+
		"rows/s with views / without = %.2f (%.0f / %.0f)\n",
		benchTip, viewBenchConcurrency, viewBenchRounds, base, touching, len(bases), viewRows, len(counts),
		strings.Join(parts, ", "), amp, strings.Join(lines, "\n"), ratio, with.rowsPerSec(), without.rowsPerSec())
}

// writeRows is the plain writer: conc goroutines, each taking the next prebuilt write and
// executing it on its own, no batches, through a cql.Session whose in-flight cap is conc
// (so the pool, not the cap, sets the concurrency).
func writeRows(ctx context.Context, b *testing.B, st *store.Store, cfg cql.Config, rows *prebuilt, conc int, name string) writerFigures {
	b.Helper()
	cfg.MaxInFlight = conc
	s, err := cql.Open(cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	total := rows.count()
	lat := make([]time.Duration, total)
	var next atomic.Int64
	var failed atomic.Pointer[error]
	var wg sync.WaitGroup
	b.StartTimer()
	start := time.Now()
	for range conc {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < total && failed.Load() == nil; i = int(next.Add(1) - 1) {
				t0 := time.Now()
				if err := writeOne(ctx, s, st, rows, i); err != nil {
					failed.CompareAndSwap(nil, &err)
				}
				lat[i] = time.Since(t0)
			}
		})
	}
	wg.Wait()
	took := time.Since(start)
	b.StopTimer()
	if err := failed.Load(); err != nil {
		b.Fatalf("%s: %v", name, *err)
	}
	slices.Sort(lat)
	return writerFigures{name: name, rows: total, took: took, p50: lat[total/2], p99: lat[total*99/100]}
}

// writeOne executes prebuilt write i: a row of a milestone, or (past them) a sync row.
func writeOne(ctx context.Context, s *cql.Session, st *store.Store, rows *prebuilt, i int) error {
	if i < len(rows.writes) {
		return rows.writes[i].WriteAlone(ctx, s)
	}
	return s.Exec(ctx, cql.InsertSync, syncArgs(st, rows.syncs[i-len(rows.writes)])...)
}

// syncArgs are the values of milestone index's sync row, synced by node 1, as the
// pipeline writes it (store.WriteSync).
func syncArgs(st *store.Store, index uint32) []any {
	return []any{st.RangeID(index), int32(index), int8(1), gocql.UnsetValue}
}

// benchApply inserts the prebuilt rows, then the sync rows, into a fresh keyspace with one
// store.Apply at a fixed level: single-partition batches as the pipeline sends them, or
// every write on its own (batched false). Beside the plain writer at the same level it
// shows what Apply itself costs; beside the pipeline, what the pipeline's reads and
// ordering cost.
func benchApply(ctx context.Context, b *testing.B, rows *prebuilt, n benchNode, level int, batched bool) writerFigures {
	b.Helper()
	st, cfg := benchStore(b, n)
	defer testcontainers.DropKeyspace(cfg)
	writes := slices.Clone(rows.writes)
	for _, index := range rows.syncs {
		writes = append(writes, st.SyncWrite(index, 1))
	}
	name := fmt.Sprintf("apply, %d groups, batched", level)
	if !batched {
		name = fmt.Sprintf("apply, %d groups, single", level)
		for i := range writes {
			writes[i].Partition = ""
		}
	}
	b.StartTimer()
	start := time.Now()
	err := st.Apply(ctx, writes, level)
	took := time.Since(start)
	b.StopTimer()
	if err != nil {
		b.Fatalf("%s: %v", name, err)
	}
	return writerFigures{name: name, rows: len(writes), took: took}
}
