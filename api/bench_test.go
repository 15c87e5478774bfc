package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
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
// API layer (HTTP, JSON, decoding, paging) costs. Figures are printed, not asserted.
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
		{"outputs by address", "/outputs?address=" + addr, func(ctx context.Context) error {
			return directList(ctx, g, cql.AddressHints, []any{addr, "basic", "address"},
				cql.Outputs["basic_outputs"].ByView["address"], addr)
		}},
		{"tag messages", "/tags/" + tag + "/messages", func(ctx context.Context) error {
			return directList(ctx, g, cql.TagHintsByKind, []any{tag, store.TagKindMessage}, cql.TagMessages, tag)
		}},
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: benchClients}}
	b.ResetTimer()
	lines := []string{fmt.Sprintf("%-20s %-32s %-32s %s", "route", "API p50 / p99 / req/s", "gocql p50 / p99 / req/s", "p50 ratio")}
	for _, r := range routes {
		viaAPI := load(b, func(ctx context.Context) error { return getOK(ctx, client, e.srv.URL+r.path) })
		direct := load(b, r.direct)
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

// load runs op from benchClients goroutines for benchDuration.
func load(b *testing.B, op func(ctx context.Context) error) figures {
	b.Helper()
	var mu sync.Mutex
	var lat []time.Duration
	start := time.Now()
	var wg sync.WaitGroup
	for range benchClients {
		wg.Go(func() {
			var mine []time.Duration
			for time.Since(start) < benchDuration {
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
	slices.Sort(lat)
	if len(lat) == 0 {
		b.Fatal("no request completed")
	}
	return figures{p50: lat[len(lat)/2], p99: lat[len(lat)*99/100], perSec: float64(len(lat)) / time.Since(start).Seconds()}
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
