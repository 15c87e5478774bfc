package api

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/explorer"
	"github.com/stardust-indexer/stardust-indexer/api/indexer"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/ingest/bootstrap"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
	"github.com/stardust-indexer/stardust-indexer/testsupport/snapshottest"
)

// BenchmarkLedgerAsOf prints, on a sim chain of ASOF_BENCH_MILESTONES (50 000)
// milestones whose wallets keep about 200 spendable outputs (a network at steady state:
// spends keep pace with creations), side by side in one run (alternating turns, 4
// clients):
//   - a TIP-26 page (basic outputs of the busiest owner, 100) and that owner's balance,
//     each asked at a ledger index in the middle of the chain and without ledgerIndex,
//     and the ratio of their p50s;
//   - the balance history of the address with the most changes: one walk of every page
//     (p50 of 5 walks) and the database rows the walk reads.
//
// BenchmarkBalanceHistory measures the same walk for the address whose ledger updates
// number closest to 10 000, on a chain of ASOF_HISTORY_MILESTONES (8 000) milestones.
func BenchmarkLedgerAsOf(b *testing.B) {
	e, n := benchChain(b, "BenchmarkLedgerAsOf", "ASOF_BENCH_MILESTONES", 50_000, asOfBenchSim)
	model := e.unspentOutputs()
	owner, mid := valuesOf(model).owner, n/2
	page := fmt.Sprintf("%s/outputs/basic?address=%s&pageSize=100", indexer.Tip26Prefix, owner)
	balance := explorerPath + "/balance/" + owner
	lines := []string{fmt.Sprintf("%-24s %-32s %-32s %s", "read", "at ledgerIndex p50 / p99 / req/s",
		"latest p50 / p99 / req/s", "p50 ratio")}
	for _, r := range []struct{ name, path, sep string }{{"TIP-26 page of 100", page, "&"}, {"balance", balance, "?"}} {
		asOf := fmt.Sprintf("%s%sledgerIndex=%d", r.path, r.sep, mid)
		f := alternate(b, benchClients, func(ctx context.Context) error { return getOK(ctx, benchClient, e.srv.URL+asOf) },
			func(ctx context.Context) error { return getOK(ctx, benchClient, e.srv.URL+r.path) })
		lines = append(lines, fmt.Sprintf("%-24s %-32s %-32s %.2fx", r.name, f[0], f[1], ratio(f[0], f[1])))
	}
	fmt.Printf("BenchmarkLedgerAsOf: owner %s, ledgerIndex %d of %d:\n%s\n", owner, mid, n, strings.Join(lines, "\n"))
	benchBalanceHistory(b, e, 1<<62)
}

func BenchmarkBalanceHistory(b *testing.B) {
	testcontainers.SkipShort(b)
	n := uint32(envInt("ASOF_HISTORY_MILESTONES", 8_000))
	e := newEnv(b, asOfBenchSim, n)
	benchBalanceHistory(b, e, 10_000)
}

// asOfBenchSim is the benchmarks' chain: 3 messages a milestone, 20 addresses, the
// wallets' spendable outputs kept near 200.
var asOfBenchSim = sim.Options{Seed: 50, MessagesPerMilestone: 3, AddressPool: 20, TagPool: 4, SpendableOutputs: 200}

// benchBalanceHistory walks the balance history of the address whose ledger updates
// number closest to changes: its p50 over 5 walks, its pages and the rows one walk reads.
func benchBalanceHistory(b *testing.B, e *env, changes int) {
	w := newExplorerWant(e.truth)
	busiest := updatedNear(w, changes)
	path := explorerPath + "/balance/" + busiest + "/history?granularity=milestone"
	walk := func() (points, pages int) {
		for _, p := range getPages(b, e, path, 1000, func(p *explorer.BalanceHistoryJSON) string { return p.Cursor }) {
			points, pages = points+len(p.Items), pages+1
		}
		return points, pages
	}
	before := rowsRead(b, e)
	points, pages := walk()
	rows := rowsRead(b, e) - before
	var took []time.Duration
	for range 5 {
		t0 := time.Now()
		walk()
		took = append(took, time.Since(t0))
	}
	slices.Sort(took)
	fmt.Printf("balance history of %s (%d ledger updates): %d points in %d pages, "+
		"one walk p50 %s (5 walks), %d rows read\n", busiest, len(w.updates[busiest]), points, pages,
		took[2].Round(time.Millisecond), rows)
}

// benchChain is a keyspace holding a sim chain of opts, of the milestones the variable
// named asks for (def by default), served; it prints the ingest's time under name.
func benchChain(b *testing.B, name, variable string, def int, opts sim.Options) (*env, uint32) {
	testcontainers.SkipShort(b)
	n := uint32(envInt(variable, def))
	start := time.Now()
	e := newEnv(b, opts, n)
	fmt.Printf("%s: %d milestones ingested in %s\n", name, n, time.Since(start).Round(time.Second))
	return e, n
}

// updatedNear is the address whose ledger updates number closest to changes (the
// smallest such address when several are).
func updatedNear(w *explorerWant, changes int) string {
	busiest, off := "", 1<<62
	for a, us := range w.updates {
		if d := max(len(us)-changes, changes-len(us)); d < off || d == off && a < busiest {
			busiest, off = a, d
		}
	}
	return busiest
}

// rowsRead is the API's api_rows_read_total.
func rowsRead(b *testing.B, e *env) int64 {
	resp, err := http.Get(e.srv.URL + "/metrics")
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "api_rows_read_total "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				b.Fatal(err)
			}
			return int64(f)
		}
	}
	b.Fatal("no api_rows_read_total in /metrics")
	return 0
}

// BenchmarkLedgerAnalyticsOnRequest prints the time and the heap of the richest addresses
// computed on request (no worker run) on a ledger of ASOF_BENCH_OUTPUTS (1 000 000)
// outputs bootstrapped from a made-up snapshot, then the same ask again (kept) and the
// token distribution at the same index.
func BenchmarkLedgerAnalyticsOnRequest(b *testing.B) {
	testcontainers.SkipShort(b)
	outputs := envInt("ASOF_BENCH_OUTPUTS", 1_000_000)
	start := time.Now()
	st, _ := bootstrapMadeUp(b, snapshottest.Options{Seed: 5, Outputs: outputs, Milestones: 30, Addresses: max(outputs/4, 1)})
	fmt.Printf("BenchmarkLedgerAnalyticsOnRequest: %d outputs bootstrapped in %s\n", outputs, time.Since(start).Round(time.Second))
	srv := httptest.NewServer(New(st, Config{RequestTimeout: 10 * time.Minute}).Handler())
	defer srv.Close()
	for _, ask := range []string{"richest-addresses?top=100&ledgerIndex=30", "richest-addresses?top=100&ledgerIndex=30",
		"token-distribution?ledgerIndex=30"} {
		took, peak := timedHeap(b, func() error { return getOK(context.Background(), benchClient, srv.URL+explorerPath+"/ledger/"+ask) })
		fmt.Printf("BenchmarkLedgerAnalyticsOnRequest: GET /ledger/%s: %s, peak heap %.0f MB\n", ask,
			took.Round(time.Millisecond), float64(peak)/(1<<20))
	}
}

// timedHeap runs op and returns how long it took and the largest heap in use seen
// while it ran (sampled every 20 ms).
func timedHeap(b *testing.B, op func() error) (time.Duration, uint64) {
	runtime.GC()
	var peak atomic.Uint64
	done := make(chan struct{})
	go func() {
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	t0 := time.Now()
	err := op()
	took := time.Since(t0)
	close(done)
	if err != nil {
		b.Fatal(err)
	}
	return took, peak.Load()
}

// bootstrapMadeUp bootstraps a keyspace of its own from a made-up snapshot of opts, its
// full snapshot at its last milestone.
func bootstrapMadeUp(b *testing.B, opts snapshottest.Options) (*store.Store, *snapshottest.Chain) {
	c := snapshottest.New(opts)
	full := filepath.Join(b.TempDir(), "full.bin")
	if err := c.WriteFull(full, opts.Milestones, opts.Milestones, 0); err != nil {
		b.Fatal(err)
	}
	keys, err := chain.ParseMilestoneKeys([]byte(c.KeysJSON()))
	if err != nil {
		b.Fatal(err)
	}
	st, _ := storetest.New(b, 0)
	if _, err := bootstrap.Run(context.Background(), st, bootstrap.Config{Full: full, Keys: &keys, Node: "bench", Log: quiet}); err != nil {
		b.Fatal(err)
	}
	return st, c
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}
