package api

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

// BenchmarkExport prints the export of the address with the most ledger updates on a
// sim chain of EXPORT_BENCH_MILESTONES (33 000) milestones among 2 addresses, in CSV and
// JSONL (alternating, 3 rounds each): its rows, the time to its first byte and to its
// end (p50), rows/s, its size and the database rows one export reads; and this process's
// RSS (API, store and client; the sim's model is let go first), sampled every 20 ms:
// before the request, at the first byte (the holdings read), its peak while the rows
// stream, and at the end.
func BenchmarkExport(b *testing.B) {
	e, _ := benchChain(b, "BenchmarkExport", "EXPORT_BENCH_MILESTONES", 33_000, exportBenchSim)
	w := newExplorerWant(e.truth)
	busiest := updatedNear(w, 1<<62)
	fmt.Printf("BenchmarkExport: %s has %d ledger updates\n", busiest, len(w.updates[busiest]))
	e.truth, w = nil, nil // the model would be most of the RSS
	debug.FreeOSMemory()
	formats := []string{"csv", "jsonl"}
	runs := make([][]exportRun, len(formats))
	for round := range 4 {
		for i, f := range formats {
			before := rowsRead(b, e)
			r := exportOnce(b, e.srv.URL+explorerPath+"/addresses/"+busiest+"/export?format="+f)
			r.dbRows = rowsRead(b, e) - before
			if round > 0 { // the first round warms connections and prepared statements
				runs[i] = append(runs[i], r)
			}
		}
	}
	fmt.Printf("%-6s %8s %10s %10s %8s %9s %10s %s\n", "format", "rows", "1st byte", "whole", "rows/s", "MB",
		"db rows", "RSS MB: before / first byte / peak / end")
	for i, f := range formats {
		rs := runs[i]
		slices.SortFunc(rs, func(a, b exportRun) int { return int(a.whole - b.whole) })
		r := rs[len(rs)/2]
		fmt.Printf("%-6s %8d %10s %10s %8.0f %9.1f %10d %d / %d / %d / %d\n", f, r.rows, r.first.Round(time.Millisecond),
			r.whole.Round(time.Millisecond), float64(r.rows)/r.whole.Seconds(), float64(r.size)/1e6, r.dbRows,
			r.rssBefore>>10, r.rssFirst>>10, r.rssPeak>>10, r.rssEnd>>10)
	}
}

// exportBenchSim is the export benchmark's chain: 3 messages a milestone, 2 addresses,
// the wallets' spendable outputs kept near 200.
var exportBenchSim = sim.Options{Seed: 51, MessagesPerMilestone: 3, AddressPool: 2, TagPool: 4, SpendableOutputs: 200}

// exportRun is one export's figures; RSS in KiB.
type exportRun struct {
	rows                int
	size, dbRows        int64
	first, whole        time.Duration
	rssBefore, rssFirst int64
	rssPeak, rssEnd     int64
}

// exportOnce reads one export to its end, counting its rows and sampling the RSS.
func exportOnce(b *testing.B, url string) exportRun {
	var peak atomic.Int64
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
				if v := selfRSS(b); v > peak.Load() {
					peak.Store(v)
				}
			}
		}
	}()
	defer close(done)
	r := exportRun{rssBefore: selfRSS(b)}
	t0 := time.Now()
	resp, err := http.Get(url)
	if err != nil || resp.StatusCode != http.StatusOK {
		b.Fatalf("GET %s: %v %v", url, resp, err)
	}
	defer resp.Body.Close()
	br := bufio.NewReaderSize(resp.Body, 64<<10)
	for {
		line, err := br.ReadSlice('\n')
		if r.size == 0 && len(line) > 0 {
			r.first, r.rssFirst = time.Since(t0), selfRSS(b)
			peak.Store(r.rssFirst)
		}
		r.size += int64(len(line))
		if bytes.Contains(line, []byte(`"record":"change"`)) || len(line) > 0 && line[0] != '#' && line[0] != 'm' && line[0] != '{' {
			r.rows++
		}
		if err != nil {
			break
		}
	}
	r.whole, r.rssEnd, r.rssPeak = time.Since(t0), selfRSS(b), peak.Load()
	return r
}

// selfRSS is this process's resident set size in KiB (VmRSS).
func selfRSS(b *testing.B) int64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kib, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return kib
		}
	}
	b.Fatal("no VmRSS in /proc/self/status")
	return 0
}
