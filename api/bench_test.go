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
// API layer (HTTP, JSON, decoding, paging) costs. The server runs with its request
// limits on (rates high enough never to refuse the benchmark) and its metrics. API and
// gocql take turns in short slices, so a change in the machine's load (a shared
// machine) weighs on both alike. Figures are printed, not asserted.
func BenchmarkAPI(b *testing.B) {
	if testing.Short() {
		b.Skip("needs a Cassandra node (-short)")
	}
	e := newEnv(b, sim.Options{Seed: 11, AddressPool: 50, TagPool: 10}, 60)
	g := testcontainers.Session(b, e.cfg).Gocql()
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
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: benchClients}}
	b.ResetTimer()
	lines := []string{fmt.Sprintf("%-20s %-32s %-32s %s", "route", "API p50 / p99 / req/s", "gocql p50 / p99 / req/s", "p50 ratio")}
	for _, r := range routes {
		viaAPI, direct := alternate(b, func(ctx context.Context) error { return getOK(ctx, client, srv.URL+r.path) }, r.direct)
		lines = append(lines, fmt.Sprintf("%-20s %-32s %-32s %.2fx", r.name, viaAPI, direct,
			float64(viaAPI.p50)/float64(max(direct.p50, 1))))
	}
	b.Logf("loopback load, %d clients x %s per measurement:\n%s", benchClients, benchDuration, strings.Join(lines, "\n"))
}

// figures are a measurement's latency percentiles and throughput.
type figures struct {
	p50, p99 time.Duration
	perSec   float64
}

func (f figures) String() string {
	return fmt.Sprintf("%7s / %7s / %6.0f", f.p50.Round(time.Microsecond), f.p99.Round(time.Microsecond), f.perSec)
}

// benchSlices is how many turns each side of a comparison takes (benchDuration in all).
const benchSlices = 8

// alternate measures a and b in turns of benchDuration/benchSlices each.
func alternate(tb *testing.B, a, b func(ctx context.Context) error) (figures, figures) {
	var la, lb []time.Duration
	var ta, tbusy time.Duration
	for range benchSlices {
		l, d := run(tb, a, benchDuration/benchSlices)
		la, ta = append(la, l...), ta+d
		l, d = run(tb, b, benchDuration/benchSlices)
		lb, tbusy = append(lb, l...), tbusy+d
	}
	return figuresOf(tb, la, ta), figuresOf(tb, lb, tbusy)
}

// load runs op from benchClients goroutines for benchDuration.
func load(b *testing.B, op func(ctx context.Context) error) figures {
	b.Helper()
	lat, took := run(b, op, benchDuration)
	return figuresOf(b, lat, took)
}

func figuresOf(b *testing.B, lat []time.Duration, took time.Duration) figures {
	slices.Sort(lat)
	if len(lat) == 0 {
		b.Fatal("no request completed")
	}
	return figures{p50: lat[len(lat)/2], p99: lat[len(lat)*99/100], perSec: float64(len(lat)) / took.Seconds()}
}

// run runs op from benchClients goroutines for d and returns the latencies.
func run(b *testing.B, op func(ctx context.Context) error, d time.Duration) ([]time.Duration, time.Duration) {
	b.Helper()
	var mu sync.Mutex
	var lat []time.Duration
	start := time.Now()
	var wg sync.WaitGroup
	for range benchClients {
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

// directList is what a list route's first page costs in queries: the hint partitions,
// then view partitions newest first until a default page (100 rows) is full.
func directList(ctx context.Context, g *gocql.Session, hintSt *cql.Statement, hintArgs []any, rowSt *cql.Statement, key string) error {
	iter := g.Query(hintSt.CQL, hintArgs...).WithContext(ctx).Iter()
	var parts []int32
	var p int32
	for iter.Scan(&p) {
		parts = append(parts, p)
	}
	if err := iter.Close(); err != nil {
		return err
	}
	need := defaultPageSize
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
