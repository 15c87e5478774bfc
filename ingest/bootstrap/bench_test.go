package bootstrap

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/hints"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
	"github.com/stardust-indexer/stardust-indexer/testsupport/bintest"
	"github.com/stardust-indexer/stardust-indexer/testsupport/snapshottest"
)

// BenchmarkBootstrap prints, side by side in one run on the same node:
//   - the rows/s of `indexer bootstrap` (the binary, as an operator runs it: both check
//     passes and the write pass) against the best plain writer's (the same rows, built
//     beforehand, one statement at a time from a pool of goroutines, no batches). A warm-up
//     round runs the bootstrap once and picks the plain writer's best pool (32-256
//     goroutines); then benchRounds rounds alternate which of the two goes first, and the
//     ratio is of the medians;
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

// benchRounds is how many measured rounds the ratio takes the medians of.
const benchRounds = 5

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

// benchFiles writes c's full snapshot at 30 and its milestone keys: their paths.
func benchFiles(b *testing.B, c *snapshottest.Chain) (full, keys string) {
	dir := b.TempDir()
	full, keys = filepath.Join(dir, "full.bin"), filepath.Join(dir, "keys.json")
	if err := c.WriteFull(full, 30, 30, 0); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(keys, []byte(c.KeysJSON()), 0o644); err != nil {
		b.Fatal(err)
	}
	return full, keys
}

// benchRatio runs the bootstrap and the plain writer in turns and prints their figures.
func benchRatio(b *testing.B, n int) float64 {
	c := benchChain(n)
	full, keys := benchFiles(b, c)
	rows := prebuildRows(b, c)
	warm := benchBinary(b, full, keys, n)
	fmt.Printf("warm-up: bootstrap %.0f rows/s\n", warm.rowsPerSec())
	conc := bestPlain(b, rows)
	var boot, plain []float64
	for round := 1; round <= benchRounds; round++ {
		var r rssRun
		var p float64
		if round%2 == 1 {
			r, p = benchBinary(b, full, keys, n), benchPlain(b, rows, conc)
		} else {
			p, r = benchPlain(b, rows, conc), benchBinary(b, full, keys, n)
		}
		boot, plain = append(boot, r.rowsPerSec()), append(plain, p)
		fmt.Printf("round %d: bootstrap %.0f rows/s (%d rows), plain %.0f rows/s (%d rows): %.2f\n",
			round, r.rowsPerSec(), r.rows, p, len(rows), r.rowsPerSec()/p)
	}
	ratio := median(boot) / median(plain)
	fmt.Printf("bootstrap ÷ best plain (medians of %d rounds, %d outputs): %.2f\n", benchRounds, n, ratio)
	return ratio
}

// bestPlain is the plain writer's pool size that wrote the rows fastest.
func bestPlain(b *testing.B, rows []store.Write) int {
	best, bestRate := 0, 0.0
	for _, conc := range []int{32, 64, 128, 256} {
		rate := benchPlain(b, rows, conc)
		fmt.Printf("warm-up: plain writer of %d goroutines %.0f rows/s\n", conc, rate)
		if rate > bestRate {
			best, bestRate = conc, rate
		}
	}
	return best
}

// prebuildRows builds the rows the bootstrap writes for the ledger at 30, with their hints.
func prebuildRows(b testing.TB, c *snapshottest.Chain) []store.Write {
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
func benchPlain(b testing.TB, rows []store.Write, conc int) float64 {
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
				if err := rows[i].WriteAlone(context.Background(), s); err != nil {
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

// rssRun is one `indexer bootstrap` process: its outputs, rows, the bootstrap's time
// (from its last log line: the run, without starting the process and connecting), and
// the process's peak RSS.
type rssRun struct {
	outputs, rows int
	took          time.Duration
	rssMB         float64
}

func (r rssRun) outputsPerSec() float64 { return float64(r.outputs) / r.took.Seconds() }
func (r rssRun) rowsPerSec() float64    { return float64(r.rows) / r.took.Seconds() }

// benchRSS runs the indexer binary's bootstrap of an n-output file into a fresh keyspace.
func benchRSS(b *testing.B, n int) rssRun {
	full, keys := benchFiles(b, benchChain(n))
	r := benchBinary(b, full, keys, n)
	fmt.Printf("indexer bootstrap, %d outputs: %s, %.0f outputs/s, peak RSS %.1f MB\n", n, r.took.Round(time.Millisecond),
		r.outputsPerSec(), r.rssMB)
	return r
}

// benchBinary runs `indexer bootstrap` of the n-output file full into a fresh keyspace.
func benchBinary(b *testing.B, full, keys string, n int) rssRun {
	_, cfg := storetest.New(b, store.DefaultChunkSize)
	defer testcontainers.DropKeyspace(cfg)
	cmd := exec.Command(bintest.BuildIndexer(b), "bootstrap", "-snapshot", full, "-milestone-keys", keys, "-ops-addr", "",
		"-keyspace", cfg.Keyspace, "-cql-hosts", strings.Join(cfg.Hosts, ","))
	cmd.Env = append(os.Environ(), "LOG_LEVEL=info")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	peak := watchPeakRSS(cmd.Process.Pid)
	if err := cmd.Wait(); err != nil {
		b.Fatalf("bootstrap of %d outputs: %v\n%s", n, err, out.String())
	}
	rows, took, err := bootstrapFigures(out.String())
	if err != nil {
		b.Fatalf("%v\n%s", err, out.String())
	}
	return rssRun{outputs: n, rows: rows, took: took, rssMB: float64(peak()) / 1024}
}

// bootstrapFigures reads rows and took from the bootstrap's last log line.
func bootstrapFigures(log string) (rows int, took time.Duration, err error) {
	m := regexp.MustCompile(`msg=bootstrapped .* rows=(\d+) took=(\S+)`).FindStringSubmatch(log)
	if m == nil {
		return 0, 0, errors.New("no rows= and took= in the bootstrap's log")
	}
	rows, _ = strconv.Atoi(m[1])
	took, err = time.ParseDuration(m[2])
	return rows, took, err
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
