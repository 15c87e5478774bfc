package ingest

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/source/node"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// backfillMilestones is how many milestones BenchmarkNodeBackfill backfills:
// NODE_BENCH_MILESTONES, 300 by default; the full run is 20000.
var backfillMilestones = envCount("NODE_BENCH_MILESTONES", 300)

// fetchMilestones bounds the fetch-only pass to the first milestones of the range:
// NODE_BENCH_FETCH_MILESTONES, all of them by default.
var fetchMilestones = min(envCount("NODE_BENCH_FETCH_MILESTONES", backfillMilestones), backfillMilestones)

// backfillRounds is how often each source backfills them: NODE_BENCH_ROUNDS, 1 by default.
var backfillRounds = envCount("NODE_BENCH_ROUNDS", 1)

// backfillLatencies are the delays the fake node adds to every answer, each with the
// node source's ceiling of requests in flight (0: its default): NODE_BENCH_LATENCIES,
// comma-separated durations, each optionally @ceiling; 0,2ms,20ms,50ms,50ms@64,50ms@256 by default.
var backfillLatencies = envLatencies("NODE_BENCH_LATENCIES", "0,2ms,20ms,50ms,50ms@64,50ms@256")

// nodeLatency is one node-fed run's setting: the fake node's delay, the source's ceiling.
type nodeLatency struct {
	delay   time.Duration
	ceiling int
}

func (l nodeLatency) String() string {
	if l.ceiling == 0 {
		return fmt.Sprintf("node, %s per answer", l.delay)
	}
	return fmt.Sprintf("node, %s, ceiling %d", l.delay, l.ceiling)
}

func envLatencies(name, def string) []nodeLatency {
	var out []nodeLatency
	for _, text := range strings.Split(cmp.Or(os.Getenv(name), def), ",") {
		delay, ceiling, found := strings.Cut(strings.TrimSpace(text), "@")
		d, err := time.ParseDuration(delay)
		n, nerr := strconv.Atoi(cmp.Or(ceiling, "0"))
		if err != nil || d < 0 || nerr != nil || n < 0 || (found && n == 0) {
			panic(fmt.Sprintf("%s=%q: want comma-separated durations, each optionally @ceiling", name, os.Getenv(name)))
		}
		out = append(out, nodeLatency{d, n})
	}
	return out
}

func envCount(name string, def int) int {
	n, err := strconv.Atoi(cmp.Or(os.Getenv(name), strconv.Itoa(def)))
	if err != nil || n < 1 {
		panic(fmt.Sprintf("%s=%q: want a positive count", name, os.Getenv(name)))
	}
	return n
}

// BenchmarkNodeBackfill backfills a Shimmer-shaped simulated chain (40 blocks and 5
// transactions a milestone) into fresh keyspaces with the default pipeline twice over:
// fed by the simulator directly, and through the node source from a fake Hornet node
// serving the same chain over TIP-25 on loopback, with 0, 2, 20 and 50 ms added to every
// answer (backfillLatencies).
// The chain is generated before any timing, so the direct run only decodes. Milestone 1
// is served but not indexed: its genesis outputs come from no transaction, and the node
// source takes them from /outputs when milestones spend them. Each round runs every
// source in turn, starting with the next one; the figures are each source's median
// round, printed side by side, never asserted. After each backfill the source (a new one)
// also reads the milestones without writing them: what it sustains on its own.
func BenchmarkNodeBackfill(b *testing.B) {
	testcontainers.SkipShort(b)
	last := uint32(backfillMilestones) + 1
	src := sim.New(sim.Options{Seed: 42, Tip: last, MessagesPerMilestone: 40, TransactionRatio: 0.125,
		MilestoneInterval: 5 * time.Second})
	start := time.Now()
	fake := nodetest.StartSim(b, src, 1, last)
	prepared := time.Since(start)
	b.ResetTimer()
	b.StopTimer() // the timer runs only while a pipeline runs
	for range b.N {
		runs := backfillRuns(b, src, fake, last)
		printBackfill(prepared, runs)
	}
}

// backfillRun is one source's backfill: how long it took and, through the node, the
// requests the fake node answered.
type backfillRun struct {
	took, fetch time.Duration
	requests    map[string]int
	tuning      string // where the node source's adaptive limits ended
}

// backfillRuns backfills 2..last backfillRounds times from every source; runs[0] is the
// simulator's, runs[1+k] the node's at backfillLatencies[k].
func backfillRuns(b *testing.B, src *sim.Sim, fake *nodetest.Server, last uint32) [][]backfillRun {
	sources := []func() backfillRun{func() backfillRun {
		r := backfill(b, src, last)
		r.fetch = fetchOnly(b, src, last)
		return r
	}}
	for _, latency := range backfillLatencies {
		sources = append(sources, func() backfillRun { return backfillFromNode(b, fake, latency, last) })
	}
	runs := make([][]backfillRun, len(sources))
	for round := range backfillRounds {
		for k := range sources {
			s := (k + round) % len(sources)
			runs[s] = append(runs[s], sources[s]())
		}
	}
	return runs
}

// backfillFromNode backfills through a new node source (nothing cached) configured with
// the simulated network's keys.
func backfillFromNode(b *testing.B, fake *nodetest.Server, latency nodeLatency, last uint32) backfillRun {
	fake.SetLatency(latency.delay)
	defer fake.SetLatency(0)
	keys := sim.Network().Keys
	cfg := node.Config{URL: fake.URL(), Keys: &keys, Concurrency: latency.ceiling}
	ns, err := node.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	fake.ResetCounts()
	r := backfill(b, ns, last)
	r.requests = fake.Counts()
	r.tuning = ns.Tuning()
	if ns, err = node.New(cfg); err != nil {
		b.Fatal(err)
	}
	r.fetch = fetchOnly(b, ns, last)
	return r
}

// fetchOnly reads milestones 2..last, or the first fetchMilestones of them, as the
// pipeline's fetchers do (the tip first, then FetchAhead at once) and writes nothing:
// what the source alone sustains.
func fetchOnly(b *testing.B, src source.Source, last uint32) time.Duration {
	last = min(last, uint32(fetchMilestones)+1)
	var next atomic.Uint32
	next.Store(1)
	g, ctx := errgroup.WithContext(context.Background())
	start := time.Now()
	if _, err := src.Latest(ctx); err != nil {
		b.Fatalf("tip: %v", err)
	}
	for range defaultConfig.FetchAhead {
		g.Go(func() error {
			for i := next.Add(1); i <= last; i = next.Add(1) {
				if _, err := src.Milestone(ctx, i); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		b.Fatalf("fetch: %v", err)
	}
	return time.Since(start)
}

// backfill runs the default pipeline, analytics rows included, over milestones 2..last
// into a fresh keyspace, dropped when it is done.
func backfill(b *testing.B, src source.Source, last uint32) backfillRun {
	b.Helper()
	st, dbCfg := benchStore(b, benchNode{})
	defer testcontainers.DropKeyspace(dbCfg)
	p := New(src, st, Config{NodeID: 1, Start: 2, StopAt: last}, nil, benchQuiet)
	p.AddRows(analytics.Rows)
	b.StartTimer()
	start := time.Now()
	err := p.Run(context.Background())
	took := time.Since(start)
	b.StopTimer()
	if err != nil {
		b.Fatalf("backfill: %v", err)
	}
	return backfillRun{took: took}
}

// medianBackfill is the run of median duration.
func medianBackfill(runs []backfillRun) backfillRun {
	sorted := slices.Clone(runs)
	slices.SortFunc(sorted, func(a, b backfillRun) int { return cmp.Compare(a.took, b.took) })
	return sorted[len(sorted)/2]
}

func printBackfill(prepared time.Duration, runs [][]backfillRun) {
	n := float64(backfillMilestones)
	direct := medianBackfill(runs[0])
	rate := func(r backfillRun) float64 { return n / r.took.Seconds() }
	fmt.Printf("BenchmarkNodeBackfill: %d simulated milestones (40 blocks, 5 transactions each; chain generated and "+
		"served in %s), default pipeline, %d round(s), median run per source;\n"+
		"fetch only: the first %d of them read %d at once and not written\n%-24s %8s %13s %16s %25s   %s\n",
		backfillMilestones, prepared.Round(time.Millisecond), backfillRounds, fetchMilestones, defaultConfig.FetchAhead,
		"source", "seconds", "milestones/s", "ratio to direct", "fetch only, milestones/s", "requests per milestone")
	fetched := float64(fetchMilestones)
	fmt.Printf("%-24s %8.2f %13.1f %16s %25.1f\n", "simulator, direct", direct.took.Seconds(), rate(direct), "1.00",
		fetched/direct.fetch.Seconds())
	for k, latency := range backfillLatencies {
		r := medianBackfill(runs[1+k])
		fmt.Printf("%-24s %8.2f %13.1f %16.2f %25.1f   %s; %s\n", latency, r.took.Seconds(),
			rate(r), rate(r)/rate(direct), fetched/r.fetch.Seconds(), requestsPerMilestone(r.requests, n), r.tuning)
	}
}

// requestsPerMilestone prints the request counts per route divided by the milestones, total first.
func requestsPerMilestone(counts map[string]int, n float64) string {
	total := 0
	var parts []string
	for _, route := range slices.Sorted(maps.Keys(counts)) {
		total += counts[route]
		parts = append(parts, fmt.Sprintf("%s %.1f", route, float64(counts[route])/n))
	}
	return fmt.Sprintf("%.1f: %s", float64(total)/n, strings.Join(parts, ", "))
}
