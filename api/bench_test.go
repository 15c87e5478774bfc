package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// Load of each measurement: a few concurrent clients for a fixed time.
const (
	benchClients  = 4
	benchDuration = 2 * time.Second
)

// benchRoute is one API route and the same reads issued directly through gocql.
type benchRoute struct {
	name   string
	path   string
	direct func(ctx context.Context) error
}

// BenchmarkAPI measures a few routes over loopback HTTP next to the same queries run
// straight through gocql, on a fixed 60-milestone sim chain; the ratio is what the
// API layer (HTTP, JSON, decoding, paging) costs. A third column is the floor of any HTTP
// server in front of those queries: a bare net/http handler running the same gocql
// reads and answering a fixed body of the API answer's size, so that API ÷ bare is what
// this API adds to an HTTP exchange. The server runs with its request limits on (rates
// high enough never to refuse the benchmark) and its metrics. The three take turns in
// short slices, so a change in the machine's load (a shared machine) weighs on all
// alike; each is measured with 1 client (latency) and benchClients (under load).
// Figures are printed, not asserted.
func BenchmarkAPI(b *testing.B) {
	e, g := newBenchEnv(b)
	msg := e.truth.Milestones[30].Messages[3].String()
	addr := e.busiest(chain.OutputBasic, "address")
	tag := tagHex(e.truth.Messages[e.truth.Milestones[30].Messages[0]].Message.Tag())
	for _, ms := range e.truth.Milestones[30].Messages {
		if t := e.truth.Messages[ms].Message.Tag(); len(t) > 0 {
			tag = tagHex(t)
		}
	}
	routes := []benchRoute{
		{"message by id", "/messages/" + msg, func(ctx context.Context) error {
			return drain(ctx, g, cql.MessageFull, 1, msg)
		}},
		{"milestone by index", "/milestones/30", func(ctx context.Context) error {
			return drain(ctx, g, cql.MilestoneByIndex, 1, int32(30))
		}},
		{"outputs by address", "/outputs?address=" + addr, func(ctx context.Context) error {
			return directList(ctx, g, cql.AddressHints, []any{addr, "basic", "address"},
				cql.Outputs["basic_outputs"].ByView["address"], addr)
		}},
		{"tag messages", "/tags/" + tag + "/messages", func(ctx context.Context) error {
			return directList(ctx, g, cql.TagHintsByKind, []any{tag, store.TagKindMessage}, cql.TagMessages, tag)
		}},
	}
	limited := New(e.st, Config{RequestTimeout: 10 * time.Second, Limits: Limits{Rate: 1e6, Burst: 1e6,
		ClientConcurrency: DefaultClientConcurrency, MaxInFlight: DefaultMaxInFlight}})
	srv := httptest.NewServer(limited.Handler())
	defer srv.Close()
	bare := bareServer(b, routes, srv.URL)
	defer bare.Close()
	b.ResetTimer()
	var out []string
	for _, clients := range []int{1, benchClients} {
		apiRaw, bareRaw := newRawClient(b, srv.URL, clients), newRawClient(b, bare.URL, clients)
		lines := []string{fmt.Sprintf("%d client(s), p50 / p99 / req/s:\n%-20s %-26s %-26s %-26s %-26s %-26s %s", clients, "route",
			"API", "bare HTTP", "API, raw client", "bare HTTP, raw client", "gocql",
			"API÷gocql bare÷gocql API÷bare | raw client: API÷gocql bare÷gocql API÷bare")}
		for _, r := range routes {
			f := alternate(b, clients, func(ctx context.Context) error { return getOK(ctx, benchClient, srv.URL+r.path) },
				func(ctx context.Context) error { return getOK(ctx, benchClient, bare.URL+r.path) },
				func(ctx context.Context) error { return apiRaw.get(ctx, r.path) },
				func(ctx context.Context) error { return bareRaw.get(ctx, r.path) }, r.direct)
			viaAPI, viaBare, rawAPI, rawBare, direct := f[0], f[1], f[2], f[3], f[4]
			lines = append(lines, fmt.Sprintf("%-20s %-26s %-26s %-26s %-26s %-26s %8.2fx %10.2fx %7.2fx | %23.2fx %10.2fx %7.2fx",
				r.name, viaAPI, viaBare, rawAPI, rawBare, direct,
				ratio(viaAPI, direct), ratio(viaBare, direct), ratio(viaAPI, viaBare),
				ratio(rawAPI, direct), ratio(rawBare, direct), ratio(rawAPI, rawBare)))
		}
		out = append(out, strings.Join(lines, "\n"))
	}
	// Printed, not logged: the testing package keeps only 10 lines of a benchmark's log.
	fmt.Printf("BenchmarkAPI: loopback, %s per measurement:\n%s\n", benchDuration, strings.Join(out, "\n"))
}

// benchClient is the benchmarks' HTTP client: keeps a connection per client alive.
var benchClient = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: benchClients}}

// bareServer serves each route's path with a bare net/http handler that runs the route's
// direct gocql reads and answers a fixed body as long as the API's answer: the floor of
// any HTTP server in front of the same reads, on this machine.
func bareServer(b *testing.B, routes []benchRoute, api string) *httptest.Server {
	mux := http.NewServeMux()
	for _, r := range routes {
		body := bodyOf(b, api+r.path)
		path, _, _ := strings.Cut(r.path, "?")
		mux.HandleFunc(path, func(w http.ResponseWriter, req *http.Request) {
			if err := r.direct(req.Context()); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(body)
		})
	}
	return httptest.NewServer(mux)
}

func bodyOf(b *testing.B, url string) []byte {
	resp, err := benchClient.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		b.Fatalf("GET %s: %d %v", url, resp.StatusCode, err)
	}
	return body
}

// ratio is a's p50 over b's.
func ratio(a, b figures) float64 { return float64(a.p50) / float64(max(b.p50, 1)) }

// figures are a measurement's latency percentiles and throughput.
type figures struct {
	p50, p99 time.Duration
	perSec   float64
}

func (f figures) String() string {
	return fmt.Sprintf("%7s / %7s / %5.0f", f.p50.Round(time.Microsecond), f.p99.Round(time.Microsecond), f.perSec)
}

// benchSlices is how many turns each side of a comparison takes (benchDuration in all).
const benchSlices = 8

// alternate measures each op with clients goroutines, in turns of
// benchDuration/benchSlices each, so that a change of the machine's load weighs on all.
func alternate(tb *testing.B, clients int, ops ...func(ctx context.Context) error) []figures {
	lat := make([][]time.Duration, len(ops))
	busy := make([]time.Duration, len(ops))
	for range benchSlices {
		for i, op := range ops {
			l, d := run(tb, clients, op, benchDuration/benchSlices)
			lat[i], busy[i] = append(lat[i], l...), busy[i]+d
		}
	}
	out := make([]figures, len(ops))
	for i := range ops {
		out[i] = figuresOf(tb, lat[i], busy[i])
	}
	return out
}

// load runs op from benchClients goroutines for benchDuration.
func load(b *testing.B, op func(ctx context.Context) error) figures {
	b.Helper()
	lat, took := run(b, benchClients, op, benchDuration)
	return figuresOf(b, lat, took)
}

func figuresOf(b *testing.B, lat []time.Duration, took time.Duration) figures {
	slices.Sort(lat)
	if len(lat) == 0 {
		b.Fatal("no request completed")
	}
	return figures{p50: lat[len(lat)/2], p99: lat[len(lat)*99/100], perSec: float64(len(lat)) / took.Seconds()}
}

// run runs op from clients goroutines for d and returns the latencies.
func run(b *testing.B, clients int, op func(ctx context.Context) error, d time.Duration) ([]time.Duration, time.Duration) {
	b.Helper()
	var mu sync.Mutex
	var lat []time.Duration
	start := time.Now()
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			var mine []time.Duration
			for time.Since(start) < d {
				t0 := time.Now()
				if err := op(context.Background()); err != nil {
					b.Error(err)
					return
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	return lat, time.Since(start)
}

func getOK(ctx context.Context, client *http.Client, url string) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %d", url, resp.StatusCode)
	}
	return nil
}

// drain runs st with a page size and reads every row of the page into generic holders.
func drain(ctx context.Context, g *gocql.Session, st *cql.Statement, pageSize int, args ...any) error {
	_, err := drainPage(ctx, g, st, pageSize, args...)
	return err
}

func drainPage(ctx context.Context, g *gocql.Session, st *cql.Statement, pageSize int, args ...any) (int, error) {
	iter := g.Query(st.CQL, args...).WithContext(ctx).PageSize(pageSize).PageState(nil).Iter()
	row, err := iter.RowData()
	if err != nil {
		return 0, errors.Join(err, iter.Close())
	}
	n := 0
	for iter.Scan(row.Values...) {
		n++
	}
	return n, iter.Close()
}

// newBenchEnv is the benchmarks' fixed 60-milestone sim chain (seed 11) and a gocql
// session of its keyspace for the direct reads.
func newBenchEnv(b *testing.B) (*env, *gocql.Session) {
	testcontainers.SkipShort(b)
	e := newEnv(b, sim.Options{Seed: 11, AddressPool: 50, TagPool: 10}, 60)
	return e, testcontainers.Session(b, e.cfg).Gocql()
}

// scanPartitions reads the partition numbers a hint (or sync) statement lists.
func scanPartitions(ctx context.Context, g *gocql.Session, st *cql.Statement, args ...any) ([]int32, error) {
	iter := g.Query(st.CQL, args...).WithContext(ctx).Iter()
	var parts []int32
	for p := int32(0); iter.Scan(&p); {
		parts = append(parts, p)
	}
	return parts, iter.Close()
}

// directList is what a list route's first page costs in queries: the hint partitions,
// then view partitions newest first until a default page (100 rows) is full.
func directList(ctx context.Context, g *gocql.Session, hintSt *cql.Statement, hintArgs []any, rowSt *cql.Statement, key string) error {
	parts, err := scanPartitions(ctx, g, hintSt, hintArgs...)
	if err != nil {
		return err
	}
	need := rest.DefaultPageSize
	for _, part := range parts {
		n, err := drainPage(ctx, g, rowSt, need, key, part)
		if err != nil {
			return err
		}
		if need -= n; need <= 0 {
			break
		}
	}
	return nil
}
