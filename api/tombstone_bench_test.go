package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/api/explorer"
	"github.com/stardust-indexer/stardust-indexer/api/indexer"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/ledgerquery"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// TestUnspentTombstones is the tombstone benchmark (docs/decisions/010-unspent-tombstones.md):
// it writes busy traffic (TOMBSTONE_PER_MS spam outputs a milestone, each spent by the
// next milestone, until TOMBSTONE_SPENDS spends) and quiet traffic (10 a milestone, the
// rate of Shimmer milestones 17339-17340) over the same number of milestones, each into
// one partition of a fresh keyspace, then runs the TIP-26 and balance reads over both
// and prints their latency and outcome. TOMBSTONE_GC_GRACE=N sets gc_grace_seconds of
// both unspent tables to N after the writes and waits N+10 s before the reads. It prints
// figures and asserts none; it runs only with TOMBSTONE_BENCH=1.
func TestUnspentTombstones(t *testing.T) {
	if os.Getenv("TOMBSTONE_BENCH") != "1" || testing.Short() {
		t.Skip("the tombstone benchmark runs with TOMBSTONE_BENCH=1")
	}
	spends, perMS := tombEnv("TOMBSTONE_SPENDS", 150_000), tombEnv("TOMBSTONE_PER_MS", 500)
	milestones := uint32(spends/perMS) + 1
	var results [][]tombResult
	for _, tt := range []tombTraffic{{"quiet", 10, milestones}, {"busy", perMS, milestones}} {
		t.Run(tt.name, func(t *testing.T) { results = append(results, tt.run(t)) })
	}
	if len(results) == 2 {
		printTombResults(results[0], results[1])
	}
}

func tombEnv(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// tombResult is one query's figures: median latency of its runs, the items of the last
// run, its error.
type tombResult struct {
	query   string
	latency time.Duration
	items   int
	err     error
}

func (r tombResult) outcome() string {
	if r.err != nil {
		return "FAILED: " + r.err.Error()
	}
	return fmt.Sprintf("ok, %d items", r.items)
}

// run writes the traffic into a fresh keyspace and runs the queries over it.
func (tt tombTraffic) run(t *testing.T) []tombResult {
	st, cfg := storetest.New(t, tombChunk)
	if err := st.EnsureNetwork(context.Background(), chain.Network{Name: "shimmer", HRP: "smr"}, "bench"); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	deletes := tt.write(t, st)
	fmt.Printf("%s: %d milestones, %d spam outputs a milestone: %d deletes (tombstones) in unspent_outputs "+
		"partition (basic, %d), written in %s\n", tt.name, tt.milestones, tt.perMS, deletes,
		store.RangeID(tombFirst, tombChunk), time.Since(began).Round(time.Second))
	if grace := tombEnv("TOMBSTONE_GC_GRACE", 0); grace > 0 {
		tombGrace(t, testcontainers.Session(t, cfg).Gocql(), grace)
	}
	s := New(st, Config{RequestTimeout: time.Minute, HealthMaxAge: 100 * 365 * 24 * time.Hour})
	var out []tombResult
	for _, q := range tombQueries(st, tt.milestones) {
		out = append(out, q.measure(s))
	}
	return out
}

// tombGrace sets gc_grace_seconds of the unspent tables to grace and waits until every
// tombstone written is older than that (purgeable, which reads no longer count).
func tombGrace(t *testing.T, raw *gocql.Session, grace int) {
	for _, table := range []string{"unspent_outputs", "unspent_outputs_by_address"} {
		stmt := fmt.Sprintf("ALTER TABLE %s WITH gc_grace_seconds = %d", table, grace)
		if err := raw.Query(stmt).Exec(); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	fmt.Printf("gc_grace_seconds = %d on both tables; waiting %d s\n", grace, grace+10)
	time.Sleep(time.Duration(grace+10) * time.Second)
}

// tombQuery is one read of the benchmark.
type tombQuery struct {
	name string
	read func(ctx context.Context, s *Server) (int, error)
}

// measure runs q three times and keeps the median latency and the last outcome.
func (q tombQuery) measure(s *Server) tombResult {
	var took []time.Duration
	r := tombResult{query: q.name}
	for range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		began := time.Now()
		r.items, r.err = q.read(ctx, s)
		took = append(took, time.Since(began))
		cancel()
	}
	slices.Sort(took)
	r.latency = took[1]
	return r
}

// tombQueries are the reads: address-less TIP-26 pages (every basic output matches,
// pageSize 1000 (the default) and 100, from the start and from the middle of the
// partition), an address's TIP-26 page and its balance (the quiet wallet, the spammer).
func tombQueries(st *store.Store, milestones uint32) []tombQuery {
	no := false
	every := ledgerquery.Filter{HasNativeTokens: &no}
	middle := &store.Position{CreatedAt: tombTime(tombFirst + milestones/2).Unix()}
	quiet, spammer := tombAddress("wallet-quiet").Local(st.HRP()), tombAddress("spammer").Local(st.HRP())
	return []tombQuery{
		tip26Read("address-less, first page (1000)", every, nil, 1000),
		tip26Read("address-less, first page (100)", every, nil, 100),
		tip26Read("address-less, later page (1000)", every, middle, 1000),
		tip26Read("address=quiet wallet (1000)", ledgerquery.Filter{Address: quiet}, nil, 1000),
		tip26Read("address=spammer (1000)", ledgerquery.Filter{Address: spammer}, nil, 1000),
		balanceRead("balance of the quiet wallet", quiet.Text),
		balanceRead("balance of the spammer", spammer.Text),
		windowedRead("probe: 60 s slices, first page (1000)", 60, milestones, 1000),
	}
}

// tip26Read is one TIP-26 page of basic outputs through the route's query and budget.
func tip26Read(name string, f ledgerquery.Filter, start *store.Position, size int) tombQuery {
	return tombQuery{name, func(ctx context.Context, s *Server) (int, error) {
		f := f
		ans, err := indexer.New(rest.NewReads(s.st), s.st).Tip26Query(ctx, []chain.OutputKind{chain.OutputBasic}, &f, start, size, indexer.Tip26Budget)
		if err != nil {
			return 0, err
		}
		return len(ans.Items), nil
	}}
}

// balanceRead is GET /balance/{address} through the route's handler; a failure carries
// the store's error of the reads it makes.
func balanceRead(name, address string) tombQuery {
	return tombQuery{name, func(ctx context.Context, s *Server) (int, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, explorer.ExplorerPrefix+"/balance/"+address, nil)
		if err != nil {
			return 0, err
		}
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			_, serr := s.st.OwnerCandidates(ctx, address, explorer.MaxBalanceOutputs, 0)
			return 0, errors.Join(fmt.Errorf("status %d %s", w.Code, w.Body.Bytes()), serr)
		}
		return 1, nil
	}}
}

func printTombResults(quiet, busy []tombResult) {
	fmt.Printf("\n%-34s | %-10s %-16s | %-10s %s\n", "query", "quiet", "", "busy", "")
	for i := range quiet {
		q, b := quiet[i], busy[i]
		fmt.Printf("%-34s | %-10s %-16s | %-10s %s\n", q.query, q.latency.Round(100*time.Microsecond), q.outcome(),
			b.latency.Round(100*time.Microsecond), b.outcome())
	}
}

// windowedRead is the read a time-bucketed layout would make (the design probe of
// docs/decisions/010-unspent-tombstones.md): the first page of every basic output, read by
// slices of window seconds of creation time, each slice its own paged read, so no read
// crosses more tombstones than a window holds rows.
func windowedRead(name string, window int64, milestones uint32, size int) tombQuery {
	return tombQuery{name, func(ctx context.Context, s *Server) (int, error) {
		rng := store.RangeID(tombFirst, tombChunk)
		end := tombTime(tombFirst + milestones).Unix()
		items := 0
		for from := tombTime(tombFirst).Unix(); from < end && items < size; from += window {
			span := store.Span{From: store.Position{CreatedAt: from}, To: store.Position{CreatedAt: from + window}}
			n, err := readWindow(ctx, s.st, rng, span, size-items)
			if err != nil {
				return items, err
			}
			items += n
		}
		return items, nil
	}}
}

// readWindow reads up to want rows of one slice, page by page.
func readWindow(ctx context.Context, st *store.Store, rng int32, span store.Span, want int) (int, error) {
	n := 0
	req := store.PageRequest{Size: want}
	for {
		rows, next, err := st.LedgerPage(ctx, store.LedgerStream{Kind: chain.OutputBasic.String()}, rng, span, req)
		if err != nil {
			return n, err
		}
		n += len(rows)
		if len(next) == 0 || n >= want {
			return n, nil
		}
		req = store.PageRequest{Size: want - n, State: next}
	}
}
