package ingest

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/hints"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// The benchmark chain: the ingest tests' sim chain (12 messages per milestone, 20-minute
// milestones), in keyspaces with the production chunk size.
const benchChunk = store.DefaultChunkSize

// benchTip is the chain's length: INGEST_BENCH_MILESTONES, 400 by default, long enough that
// the pipeline's first milestone (130-230 ms) and its limiter's climb (about a second) do
// not dominate a writer's run, as they would in the 3-4 s of 200 milestones (an indexer
// backfills for hours). docs/benchmarks.md has runs of both lengths.
var benchTip = func() uint32 {
	n, err := strconv.ParseUint(cmp.Or(os.Getenv("INGEST_BENCH_MILESTONES"), "400"), 10, 32)
	if err != nil || n < 10 {
		panic(fmt.Sprintf("INGEST_BENCH_MILESTONES=%q: want a number of milestones, at least 10", os.Getenv("INGEST_BENCH_MILESTONES")))
	}
	return uint32(n)
}()

// plainConcurrency are the pool sizes the plain writer tries; the best one is the baseline.
var plainConcurrency = []int{32, 64, 128, 256}

var benchQuiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// BenchmarkIngest runs the real pipeline over a fixed sim chain into a fresh keyspace
// (with the analytics rows, as `indexer run` has them), then inserts the very same rows,
// built beforehand, into other fresh keyspaces with a plain writer: a pool of goroutines
// executing each write on its own, no batches, no sync-row ordering, no reads. The plain
// writer tries a few pool sizes and the best one is the baseline; pipeline rows/s divided
// by plain rows/s is the figure that says what the pipeline's ordering and bookkeeping cost.
// Every writer runs benchRounds times in turn and each round gives a ratio; the median
// ratio is the figure.
// It does so on two nodes: the test node, and a slow node the benchmark starts itself
// (startSlowNode), so that the one pipeline configuration, whose adaptive write limiter
// must find each node's best concurrency by itself, is measured against the best fixed
// pool on each. Figures are printed (and reported as metrics), not asserted.
func BenchmarkIngest(b *testing.B) {
	testcontainers.SkipShort(b)
	ctx := context.Background()
	src := sim.New(sim.Options{Seed: 42, Tip: benchTip, MessagesPerMilestone: 12, MilestoneInterval: 20 * time.Minute})
	rows := prebuild(b, src) // also generates the chain, so the pipeline's fetches only decode
	nodes := []benchNode{{label: "test", name: "test node"}}
	if slow, why := startSlowNode(b); slow != nil {
		nodes = append(nodes, *slow)
	} else {
		fmt.Printf("BenchmarkIngest: slow node skipped: %s\n", why)
	}
	b.ResetTimer()
	b.StopTimer() // the timer runs only while a writer writes
	for range b.N {
		printHeader(rows)
		var results []nodeResult
		for _, n := range nodes {
			r := benchNodeRun(ctx, b, src, rows, n)
			printNode(r) // as soon as it is measured: the slow node takes minutes
			results = append(results, r)
		}
		printRatios(results)
		r := results[0]
		b.ReportMetric(float64(benchTip)/r.pipe.took.Seconds(), "milestones/s")
		b.ReportMetric(r.pipe.rowsPerSec(), "rows/s")
		b.ReportMetric(millis(r.pipe.p50), "p50-ms/milestone")
		b.ReportMetric(millis(r.pipe.p99), "p99-ms/milestone")
		b.ReportMetric(r.best.rowsPerSec(), "plain-rows/s")
		b.ReportMetric(r.ratio(), "pipeline/plain")
		b.ReportMetric(r.medianRatio(), "pipeline/plain-medians")
		if len(results) > 1 {
			b.ReportMetric(results[1].ratio(), "slow-pipeline/plain")
			b.ReportMetric(results[1].medianRatio(), "slow-pipeline/plain-medians")
		}
	}
}

// benchRounds is how many times each writer runs on a node, in a rotated order each round:
// a node keeps getting faster for minutes after its start (a one-CPU JVM compiles for
// long) and runs of one writer differ by 10-20% on this shared machine, so the figure is
// the median over rounds of the pipeline's run divided by the best plain run of the same
// round (a paired comparison, which a drifting node weighs on alike).
const benchRounds = 5

// defaultConfig is the pipeline's Config as the benchmark runs it (the defaults).
var defaultConfig = func() Config { c := Config{}; c.defaults(); return c }()

// benchNode is a node the benchmark writes to: hosts nil is the test node.
type benchNode struct {
	label, name string
	hosts       []string
}

// nodeResult is one node's run: every writer's median round, the best plain pool, and
// the pipeline ÷ best plain ratio of each round.
type nodeResult struct {
	node   benchNode
	pipe   writerFigures
	extras []writerFigures // the pipeline at fixed write limits (INGEST_BENCH_FIXED), then Apply's (INGEST_BENCH_APPLY)
	plains []writerFigures
	best   writerFigures
	rounds []float64 // each round: the pipeline's run ÷ the round's best plain run
	// control is the same per-round figure for the best plain writer (by median) against
	// the other plain writers: what that figure gives a writer that is as good as the best.
	// The round's best of several noisy runs is above their typical run (the winner's
	// curse), so the per-round figure of the best writer itself stays below 1.
	control []float64
}

// ratio is the median of the rounds' ratios.
func (r nodeResult) ratio() float64 { return median(r.rounds) }

// medianRatio is the pipeline's median run ÷ the best plain writer's median run: the two
// writers compared as a whole, each by its typical run.
func (r nodeResult) medianRatio() float64 { return r.pipe.rowsPerSec() / r.best.rowsPerSec() }

func benchNodeRun(ctx context.Context, b *testing.B, src *sim.Sim, rows *prebuilt, n benchNode) nodeResult {
	warmUp(ctx, b, rows, n)
	writers := []func() writerFigures{func() writerFigures { return benchPipeline(ctx, b, src, n, Config{}) }}
	for _, level := range levels(b, "INGEST_BENCH_FIXED") {
		writers = append(writers, func() writerFigures {
			f := benchPipeline(ctx, b, src, n, Config{FixedWrites: true, WriteParallel: level})
			f.name = fmt.Sprintf("pipeline, fixed at %d", level)
			return f
		})
	}
	for _, level := range levels(b, "INGEST_BENCH_APPLY") {
		for _, batched := range []bool{true, false} {
			writers = append(writers, func() writerFigures { return benchApply(ctx, b, rows, n, level, batched) })
		}
	}
	extras := writers[1:] // neither the pipeline nor a plain writer
	for _, conc := range plainConcurrency {
		writers = append(writers, func() writerFigures { return benchPlain(ctx, b, rows, n, conc) })
	}
	runs := make([][]writerFigures, len(writers)) // runs[writer][round]
	for round := range benchRounds {
		for k := range writers {
			w := (k + round) % len(writers) // each round starts with the next writer
			runs[w] = append(runs[w], writers[w]())
		}
	}
	r := nodeResult{node: n, pipe: medianRun(runs[0])}
	for _, pipe := range runs[1 : 1+len(extras)] {
		r.extras = append(r.extras, medianRun(pipe))
	}
	plains := runs[1+len(extras):]
	for _, pool := range plains {
		r.plains = append(r.plains, medianRun(pool))
	}
	r.best = slices.MaxFunc(r.plains, byRate)
	r.rounds = roundRatios(runs[0], plains)
	bestAt := slices.IndexFunc(r.plains, func(f writerFigures) bool { return f.name == r.best.name })
	r.control = roundRatios(plains[bestAt], slices.Delete(slices.Clone(plains), bestAt, bestAt+1))
	return r
}

// roundRatios is, for each round, the contender's run ÷ the best run of the others in the
// same round.
func roundRatios(contender []writerFigures, others [][]writerFigures) []float64 {
	ratios := make([]float64, len(contender))
	for round, run := range contender {
		best := 0.0
		for _, other := range others {
			best = max(best, other[round].rowsPerSec())
		}
		ratios[round] = run.rowsPerSec() / best
	}
	return ratios
}

// warmUp writes with an uncounted plain writer until two runs in a row agree within 10%
// (at most 5 runs): a freshly started JVM compiles its hot paths for a while, which would
// favour whichever writer runs later.
func warmUp(ctx context.Context, b *testing.B, rows *prebuilt, n benchNode) {
	prev := 0.0
	for range 5 {
		rate := benchPlain(ctx, b, rows, n, 64).rowsPerSec()
		if prev > 0 && math.Abs(rate-prev) <= 0.1*prev {
			return
		}
		prev = rate
	}
}

// levels are the write limits an environment variable lists (e.g. "64,128"; none by
// default). At INGEST_BENCH_FIXED's the pipeline also runs with the limiter off: the
// pipeline at its best fixed level against the best plain writer is what the pipeline
// itself costs, apart from the adaptive limiter's search. At INGEST_BENCH_APPLY's the
// prebuilt rows also go through store.Apply, batched and not (benchApply): what Apply
// costs, apart from the pipeline's reads and ordering.
func levels(b *testing.B, env string) []int {
	var levels []int
	for _, f := range strings.FieldsFunc(os.Getenv(env), func(r rune) bool { return r == ',' }) {
		level, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || level < 1 {
			b.Fatalf("%s: %q is not a write limit", env, f)
		}
		levels = append(levels, level)
	}
	return levels
}

// byRate orders writer runs by rows/s.
func byRate(a, b writerFigures) int { return cmp.Compare(a.rowsPerSec(), b.rowsPerSec()) }

// medianRun is the run of median rows/s among a writer's rounds.
func medianRun(runs []writerFigures) writerFigures {
	sorted := slices.Clone(runs)
	slices.SortFunc(sorted, byRate)
	return sorted[len(sorted)/2]
}

// printHeader says what was measured. Printed, not logged: the testing package keeps
// only 10 lines of a benchmark's log.
func printHeader(rows *prebuilt) {
	fmt.Printf("BenchmarkIngest: %d milestones, %d rows built beforehand (%s)\n"+
		"pipeline: default Config (Window %d milestones, adaptive write limit starting at %d write groups "+
		"over all of them, within [%d, CQL_MAX_IN_FLIGHT], single-partition batches); latency per milestone\n"+
		"plain: one statement per write, no batches; latency per statement\n"+
		"each node is warmed up first by a plain writer of 64 goroutines until two runs agree within 10%% (not counted);\n"+
		"then every writer runs %d times, each round starting with the next writer; each line is a writer's median run;\n"+
		"pipeline/plain is the median over the rounds of the pipeline's run ÷ the round's best plain run;\n"+
		"median÷median is the pipeline's median run ÷ the best plain writer's median run;\n"+
		"control is the per-round figure of that best plain writer against the other plain writers\n",
		benchTip, rows.count(), rows.summary(), defaultConfig.Window, defaultConfig.WriteParallel, MinWrites, benchRounds)
}

// printNode prints one node's writers.
func printNode(r nodeResult) {
	fmt.Printf("-- %s (pipeline's write limit: median %s over the run, %d at the end, ceiling %d)\n%-30s %8s %8s %10s %11s %11s\n%s\n", r.node.name,
		r.pipe.limits, r.pipe.limit, r.pipe.ceiling, "writer", "rows", "seconds", "rows/s", "p50", "p99",
		r.pipe.line(fmt.Sprintf("pipeline, %.1f milestones/s", float64(benchTip)/r.pipe.took.Seconds())))
	fmt.Printf("%30s   write limit every 250 ms: %s\n", "", r.pipe.timeline)
	if p := r.pipe; p.middle > 0 {
		fmt.Printf("%30s   first milestone written after %s; the middle 80%% of milestones at %.0f rows/s\n", "",
			p.first.Round(time.Millisecond), 0.8*float64(p.rows)/p.middle.Seconds())
	}
	fmt.Printf("%30s   its estimates, level:statements/s(windows, what Little's law said): %s\n", "", strings.Join(r.pipe.estimates, " "))
	for _, f := range r.extras {
		fmt.Println(f.line(f.name))
	}
	for _, f := range r.plains {
		mark := ""
		if f.name == r.best.name {
			mark = " <- best"
		}
		fmt.Println(f.line(f.name) + mark)
	}
}

// printRatios prints every node's pipeline/plain ratio side by side.
func printRatios(results []nodeResult) {
	fmt.Printf("%-6s %16s %24s %14s %15s %26s %8s %26s   %s\n", "node", "pipeline rows/s", "best plain rows/s (pool)",
		"median÷median", "pipeline/plain", "each round's ratio", "control", "control's rounds",
		"write limit: median (min-max), median in flight")
	for _, r := range results {
		fmt.Printf("%-6s %16.0f %17.0f (%4s) %14.2f %15.2f %26s %8.2f %26s   %s\n", r.node.label, r.pipe.rowsPerSec(),
			r.best.rowsPerSec(), strings.Fields(r.best.name)[1], r.medianRatio(), r.ratio(), twoPlaces(r.rounds),
			median(r.control), twoPlaces(r.control), r.pipe.limits)
	}
}

// twoPlaces prints ratios with two decimals, space-separated.
func twoPlaces(xs []float64) string {
	each := make([]string, len(xs))
	for i, x := range xs {
		each[i] = fmt.Sprintf("%.2f", x)
	}
	return strings.Join(each, " ")
}

// writerFigures is one writer's run.
type writerFigures struct {
	name           string
	ceiling, limit int           // pipeline only: CQL_MAX_IN_FLIGHT, and the write limit it ended with
	limits         string        // pipeline only: the write limit over the run, median (min-max)
	timeline       string        // pipeline only: the write limit every 250 ms
	first, middle  time.Duration // pipeline only: its first milestone written after first; the middle 80% of milestones took middle
	estimates      []string      // pipeline only: the limiter's throughput per level at the end, level:statements/s(windows, Little)
	rows           int
	took           time.Duration
	p50, p99       time.Duration
}

func (f writerFigures) rowsPerSec() float64 { return float64(f.rows) / f.took.Seconds() }

func (f writerFigures) line(name string) string {
	return fmt.Sprintf("%-30s %8d %8.2f %10.0f %11s %11s", name, f.rows, f.took.Seconds(), f.rowsPerSec(),
		f.p50.Round(10*time.Microsecond), f.p99.Round(10*time.Microsecond))
}

func millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// benchStore is a fresh migrated keyspace on n with the chunk size recorded.
func benchStore(b *testing.B, n benchNode) (*store.Store, cql.Config) {
	b.Helper()
	if n.hosts == nil {
		return storetest.New(b, benchChunk)
	}
	return storetest.NewOn(b, n.hosts, benchChunk)
}

// benchPipeline runs the pipeline over milestones 1..benchTip and reads its own metrics:
// rows written (all tables, sync rows included) and the per-milestone write latency
// (pending-mark reads, every row, then the sync row) from its histogram, given fine
// buckets here (4% apart) so that the percentiles are close.
func benchPipeline(ctx context.Context, b *testing.B, src *sim.Sim, n benchNode, cfg Config) writerFigures {
	b.Helper()
	return benchPipelineRows(ctx, b, src, n, cfg, analytics.Rows)
}

// benchPipelineRows is benchPipeline with the given analytics rows.
func benchPipelineRows(ctx context.Context, b *testing.B, src *sim.Sim, n benchNode, cfg Config, rows RowsFunc) writerFigures {
	b.Helper()
	st, dbCfg := benchStore(b, n)
	defer testcontainers.DropKeyspace(dbCfg) // now, not when the benchmark ends: see benchPlain
	reg := prometheus.NewRegistry()
	m := NewMetrics(nil)
	m.WriteSeconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "indexer_write_seconds",
		Help: "bench", Buckets: prometheus.ExponentialBucketsRange(0.0005, 120, 320)}, []string{"stage"})
	reg.MustRegister(m.Rows, m.WriteSeconds)
	cfg.NodeID, cfg.StopAt = 1, benchTip
	p := New(src, st, cfg, m, benchQuiet)
	p.AddRows(rows)
	stopSampling, limits, pace := sampleLimit(p)
	b.StartTimer()
	start := time.Now()
	if err := p.Run(ctx); err != nil {
		b.Fatalf("pipeline: %v", err)
	}
	took := time.Since(start)
	b.StopTimer()
	stopSampling()
	f := writerFigures{name: "pipeline", took: took, ceiling: st.MaxInFlight(), limit: p.WriteLimit()}
	f.limits, f.timeline = limits()
	f.first, f.middle = pace()
	for _, e := range p.writes.Estimates() {
		f.estimates = append(f.estimates, fmt.Sprintf("%d:%.0f(%d, Little %.0f)", e.Level, e.PerSec, e.Windows, e.Little))
	}
	families, err := reg.Gather()
	if err != nil {
		b.Fatal(err)
	}
	for _, mf := range families {
		for _, metric := range mf.GetMetric() {
			switch mf.GetName() {
			case "indexer_rows_total":
				f.rows += int(metric.GetCounter().GetValue())
			case "indexer_write_seconds":
				if labelValue(metric.GetLabel(), "stage") == "milestone" {
					h := metric.GetHistogram()
					f.p50, f.p99 = histQuantile(h.GetBucket(), h.GetSampleCount(), 0.5), histQuantile(h.GetBucket(), h.GetSampleCount(), 0.99)
				}
			}
		}
	}
	return f
}

// sampleLimit reads the pipeline's write limit, writes in flight and milestones written
// every 10 ms until stop; limits then summarizes where they were: "median (min-max)", and
// the median in flight (below the limit: the Window, not the limiter, bounded the writes);
// timeline is the limit every 250 ms, to see how long the climb from the start took; pace
// is when the first milestone was written and how long the middle 80% of milestones took
// (the run without its start and its drain, to set beside the whole run).
func sampleLimit(p *Pipeline) (stop func(), limits func() (summary, timeline string), pace func() (first, middle time.Duration)) {
	var seen, inFlight []int
	var written []int64
	var at []time.Duration
	start := time.Now()
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				seen = append(seen, p.WriteLimit())
				inFlight = append(inFlight, p.WritesInFlight())
				written, at = append(written, p.written.Load()), append(at, time.Since(start))
			}
		}
	}()
	stop = func() { close(done); <-finished }
	limits = func() (string, string) {
		if len(seen) == 0 {
			return "-", "-"
		}
		var every []string
		for i := 0; i < len(seen); i += 25 {
			every = append(every, strconv.Itoa(seen[i]))
		}
		sorted, flying := slices.Sorted(slices.Values(seen)), slices.Sorted(slices.Values(inFlight))
		return fmt.Sprintf("%d (%d-%d), in flight %d", sorted[len(sorted)/2], sorted[0], sorted[len(sorted)-1],
			flying[len(flying)/2]), strings.Join(every, " ")
	}
	pace = func() (time.Duration, time.Duration) {
		when := func(n int64) time.Duration { // the first sample with at least n milestones written
			i, _ := slices.BinarySearch(written, n)
			return at[min(i, len(at)-1)]
		}
		if len(written) == 0 {
			return 0, 0
		}
		return when(1), when(int64(benchTip)*9/10) - when(int64(benchTip)/10)
	}
	return stop, limits, pace
}

// labelValue finds a label's value among a metric's labels.
func labelValue[L interface {
	GetName() string
	GetValue() string
}](labels []L, name string) string {
	for _, l := range labels {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}

// histQuantile interpolates quantile q within the cumulative buckets of a histogram.
func histQuantile[B interface {
	GetCumulativeCount() uint64
	GetUpperBound() float64
}](buckets []B, total uint64, q float64) time.Duration {
	rank := q * float64(total)
	lower, below := 0.0, 0.0
	for _, bk := range buckets {
		cum := float64(bk.GetCumulativeCount())
		if cum >= rank && cum > below {
			sec := lower + (bk.GetUpperBound()-lower)*(rank-below)/(cum-below)
			return time.Duration(sec * float64(time.Second))
		}
		lower, below = bk.GetUpperBound(), cum
	}
	return time.Duration(lower * float64(time.Second))
}

// prebuilt are the rows of milestones 1..benchTip exactly as the pipeline builds them:
// store.MilestoneWrites, the analytics rows, the partition hints (each written once, as the
// pipeline's hint writer does), and one sync row per milestone.
type prebuilt struct {
	writes []store.Write
	syncs  []uint32
}

func (p *prebuilt) count() int { return len(p.writes) + len(p.syncs) }

func (p *prebuilt) summary() string {
	by := map[string]int{"sync": len(p.syncs)}
	for _, w := range p.writes {
		by[w.Table()]++
	}
	type kv struct {
		t string
		n int
	}
	var list []kv
	for t, n := range by {
		list = append(list, kv{t, n})
	}
	slices.SortFunc(list, func(a, b kv) int { return b.n - a.n })
	parts := make([]string, 0, 6)
	for i, e := range list {
		if i == 5 {
			parts = append(parts, fmt.Sprintf("%d more tables", len(list)-5))
			break
		}
		parts = append(parts, fmt.Sprintf("%s %d", e.t, e.n))
	}
	return strings.Join(parts, ", ")
}

func prebuild(b *testing.B, src *sim.Sim) *prebuilt {
	b.Helper()
	ctx := context.Background()
	st := store.New(nil, benchChunk) // RangeID and HRP only
	st.SetNetwork(store.RecordOf(sim.Network()))
	hw := hints.NewWriter(1 << 20)
	out := &prebuilt{}
	for i := uint32(1); i <= benchTip; i++ {
		cm, err := src.Confirmed(ctx, i)
		if err != nil {
			b.Fatal(err)
		}
		ws := st.MilestoneWrites(cm, 1, nil)
		out.writes = append(out.writes, ws.Writes...)
		out.writes = append(out.writes, analytics.Rows(cm, st)...)
		out.writes = append(out.writes, hw.Writes(ws.Hints, store.Timestamp(cm.Index, store.PhaseConfirmed))...)
		hw.Remember(ws.Hints)
		out.syncs = append(out.syncs, i)
	}
	return out
}

// benchPlain inserts the prebuilt rows into a fresh keyspace with conc goroutines (writeRows).
func benchPlain(ctx context.Context, b *testing.B, rows *prebuilt, n benchNode, conc int) writerFigures {
	b.Helper()
	st, cfg := benchStore(b, n)
	// Dropped as soon as the run ends: the keyspaces of some fifty runs, each with its
	// tables and views, left until the benchmark's end, ran the test node's 1 GB heap out.
	defer testcontainers.DropKeyspace(cfg)
	return writeRows(ctx, b, st, cfg, rows, conc, fmt.Sprintf("plain, %d goroutines", conc))
}
