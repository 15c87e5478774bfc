package bootstrap

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/hints"
	"github.com/stardust-indexer/stardust-indexer/internal/snapshottest"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// BenchmarkBootstrap prints, side by side in one run on the same node:
//   - the bootstrap's rows/s (whole run: both check passes and the write pass) against the
//     best plain writer's (the same rows, built beforehand, one statement at a time from a
//     pool of 32-256 goroutines, no batches), three rounds taking turns, medians;
//   - the peak RSS and outputs/s of `indexer bootstrap` on files of BOOTSTRAP_BENCH_OUTPUTS
//     (100000) and BOOTSTRAP_BENCH_LARGE (1000000) outputs, and the time that rate gives
//     for 5 million outputs.
func BenchmarkBootstrap(b *testing.B) {
	small := envInt("BOOTSTRAP_BENCH_OUTPUTS", 100_000)
	large := envInt("BOOTSTRAP_BENCH_LARGE", 1_000_000)
	for range b.N {
		ratio := benchRatio(b, small)
		b.ReportMetric(ratio, "bootstrap/plain")
		smallRun, largeRun := benchRSS(b, small), benchRSS(b, large)
		fmt.Printf("RSS: %d outputs %.1f MB, %d outputs %.1f MB: %.3f of each other\n", small, smallRun.rssMB, large,
			largeRun.rssMB, largeRun.rssMB/smallRun.rssMB)
		fmt.Printf("outputs/s: %.0f at %d, %.0f at %d; 5M outputs at the larger rate: %s\n", smallRun.outputsPerSec(),
			small, largeRun.outputsPerSec(), large, time.Duration(5e6/largeRun.outputsPerSec()*float64(time.Second)).Round(time.Second))
		b.ReportMetric(largeRun.rssMB/smallRun.rssMB, "rss-large/small")
		b.ReportMetric(largeRun.outputsPerSec(), "outputs/s")
	}
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// benchChain is a made-up ledger of n outputs, about two per address.
func benchChain(n int) *snapshottest.Chain {
	return snapshottest.New(snapshottest.Options{Seed: 3, Outputs: n, Milestones: 30, Receipt: 25, Addresses: max(n/2, 1)})
}

// benchRatio runs the bootstrap and the plain writers in turns and prints their figures.
func benchRatio(b *testing.B, n int) float64 {
	c := benchChain(n)
	dir := b.TempDir()
	full := filepath.Join(dir, "full.bin")
	if err := c.WriteFull(full, 30, 30, 0); err != nil {
		b.Fatal(err)
	}
	rows := prebuildRows(b, c)
	var boot, plain []float64
	for round := 1; round <= 3; round++ {
		rate, count := benchRun(b, c, full)
		boot = append(boot, rate)
		best := 0.0
		for _, conc := range []int{32, 64, 128, 256} {
			best = max(best, benchPlain(b, rows, conc))
		}
		plain = append(plain, best)
		fmt.Printf("round %d: bootstrap %.0f rows/s (%d rows), best plain %.0f rows/s (%d rows)\n",
			round, rate, count, best, len(rows))
	}
	ratio := median(boot) / median(plain)
	fmt.Printf("bootstrap ÷ best plain (medians of 3 rounds, %d outputs): %.2f\n", n, ratio)
	return ratio
}

// benchRun bootstraps the file into a fresh keyspace: rows/s over the whole run.
func benchRun(b *testing.B, c *snapshottest.Chain, full string) (float64, int) {
	st, cfg := storetest.New(b, store.DefaultChunkSize)
	defer testcontainers.DropKeyspace(cfg)
	reg, keys := prometheus.NewRegistry(), c.Network().Keys
	start := time.Now()
	if _, err := Run(context.Background(), st, Config{Full: full, Keys: &keys, Node: "bench", Log: quiet,
		Metrics: NewMetrics(reg)}); err != nil {
		b.Fatal(err)
	}
	took := time.Since(start)
	rows := rowsWritten(b, reg)
	return float64(rows) / took.Seconds(), rows
}

// rowsWritten sums the bootstrap's rows over every table.
func rowsWritten(b *testing.B, reg *prometheus.Registry) int {
	families, err := reg.Gather()
	if err != nil {
		b.Fatal(err)
	}
	var rows float64
	for _, f := range families {
		if f.GetName() == "indexer_bootstrap_rows_total" {
			for _, m := range f.GetMetric() {
				rows += m.GetCounter().GetValue()
			}
		}
	}
	return int(rows)
}

// prebuildRows builds the rows the bootstrap writes for the ledger at 30, with their hints.
func prebuildRows(b *testing.B, c *snapshottest.Chain) []store.Write {
	st := store.New(nil, store.DefaultChunkSize)
	st.SetNetwork(store.RecordOf(c.Network()))
	hw := hints.NewWriter(1 << 16)
	var rows []store.Write
	var batch []chain.LedgerOutput
	flush := func() {
		ws := st.SnapshotOutputWrites(batch)
		rows = append(rows, ws.Writes...)
		rows = append(rows, hw.Writes(ws.Hints, store.Timestamp(30, store.PhaseConfirmed))...)
		hw.Remember(ws.Hints)
		batch = batch[:0]
	}
	_ = c.ForEachUnspent(30, func(lo chain.LedgerOutput) error {
		if batch = append(batch, lo); len(batch) == 256 {
			flush()
		}
		return nil
	})
	flush()
	return rows
}

// benchPlain writes the rows into a fresh keyspace from conc goroutines, one statement
// each: rows/s.
func benchPlain(b *testing.B, rows []store.Write, conc int) float64 {
	_, cfg := storetest.New(b, store.DefaultChunkSize)
	defer testcontainers.DropKeyspace(cfg)
	cfg.MaxInFlight = conc
	s, err := cql.Open(cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var next atomic.Int64
	var failed atomic.Pointer[error]
	var wg sync.WaitGroup
	start := time.Now()
	for range conc {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(rows) && failed.Load() == nil; i = int(next.Add(1) - 1) {
				w := rows[i]
				if err := s.Write(context.Background(), w.St, w.TS, w.Args...); err != nil {
					failed.CompareAndSwap(nil, &err)
				}
			}
		})
	}
	wg.Wait()
	if err := failed.Load(); err != nil {
		b.Fatal(*err)
	}
	return float64(len(rows)) / time.Since(start).Seconds()
}

// rssRun is one `indexer bootstrap` process: its outputs, wall time and peak RSS.
type rssRun struct {
	outputs int
	took    time.Duration
	rssMB   float64
}

func (r rssRun) outputsPerSec() float64 { return float64(r.outputs) / r.took.Seconds() }

// benchRSS runs the indexer binary's bootstrap of an n-output file into a fresh keyspace.
func benchRSS(b *testing.B, n int) rssRun {
	c := benchChain(n)
	dir := b.TempDir()
	full, keys := filepath.Join(dir, "full.bin"), filepath.Join(dir, "keys.json")
	if err := c.WriteFull(full, 30, 30, 0); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(keys, []byte(c.KeysJSON()), 0o644); err != nil {
		b.Fatal(err)
	}
	_, cfg := storetest.New(b, store.DefaultChunkSize)
	defer testcontainers.DropKeyspace(cfg)
	cmd := exec.Command(buildIndexer(b), "bootstrap", "-snapshot", full, "-milestone-keys", keys, "-ops-addr", "",
		"-keyspace", cfg.Keyspace, "-cql-hosts", strings.Join(cfg.Hosts, ","))
	cmd.Env = append(os.Environ(), "LOG_LEVEL=warn")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	peak := watchPeakRSS(cmd.Process.Pid)
	if err := cmd.Wait(); err != nil {
		b.Fatalf("bootstrap of %d outputs: %v\n%s", n, err, out.String())
	}
	r := rssRun{outputs: n, took: time.Since(start), rssMB: float64(peak()) / 1024}
	fmt.Printf("indexer bootstrap, %d outputs: %s, %.0f outputs/s, peak RSS %.1f MB\n", n, r.took.Round(time.Millisecond),
		r.outputsPerSec(), r.rssMB)
	return r
}

// watchPeakRSS reads a process's peak RSS (VmHWM, KiB) every 50 ms until it ends; the
// returned function gives the last reading. The child's rusage would not do: its
// ru_maxrss counts the test process's memory it was forked from.
func watchPeakRSS(pid int) func() int {
	var peak atomic.Int64
	go func() {
		for {
			data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
			if err != nil {
				return
			}
			for _, line := range strings.Split(string(data), "\n") {
				if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
					kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
					peak.Store(max(peak.Load(), int64(kb)))
				}
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	return func() int { return int(peak.Load()) }
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
