//go:build faults

package faults_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocql/gocql"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/migrations"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// testChunk is small so the chain spans several ms_range_id partitions.
const testChunk = 50

// bookkeeping tables differ between runs by design (who and when), not by content.
var bookkeeping = []string{"indexer_meta", "leases", "gocqlx_migrate"}

// heap is each test node's JVM heap: small, the machine runs other tests too.
func heap() string {
	if h := os.Getenv("FAULTS_HEAP"); h != "" {
		return h
	}
	return "512M"
}

// envInt reads a positive integer knob (FAULTS_TIP, ...) with a default.
func envInt(t testing.TB, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: want a positive integer", name, v)
	}
	return n
}

func envDuration(t testing.TB, name string, def time.Duration) time.Duration {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		t.Fatalf("%s=%q: %v", name, v, err)
	}
	return d
}

// simOptions is the chain of the ingest package's tests: 20-minute milestones.
func simOptions(tip uint32) sim.Options {
	return sim.Options{Seed: 42, Tip: tip, MessagesPerMilestone: 12, MilestoneInterval: 20 * time.Minute}
}

// clusterConfig reaches hosts with the given consistency and keyspace.
func clusterConfig(hosts []string, keyspace string, cons gocql.Consistency) cql.Config {
	cfg := cql.DefaultConfig()
	cfg.Hosts, cfg.Keyspace, cfg.Consistency = hosts, keyspace, cons
	return cfg
}

// setupStore creates and migrates the keyspace as `indexer migrate` does and returns a
// store on it with the chunk size recorded.
func setupStore(t testing.TB, cfg cql.Config, rf int) *store.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	start := time.Now()
	// cfg.SchemaSession sends all DDL to one coordinator (cql.OpenSchema), which a
	// multi-node Cassandra 5.0 cluster needs once it holds views whose partition key has a
	// DESC clustering column of their base; the cluster test runs it on all three hosts.
	migrate(ctx, t, cfg, rf)
	s, err := cql.Open(cfg)
	if err != nil {
		t.Fatalf("open %s: %v", cfg.Keyspace, err)
	}
	st := store.New(s, testChunk)
	t.Cleanup(st.Close)
	if err := st.EnsureChunkSize(ctx, "faults"); err != nil {
		t.Fatalf("chunk size of %s: %v", cfg.Keyspace, err)
	}
	t.Logf("keyspace %s (RF %d, %s) migrated in %s", cfg.Keyspace, rf, cfg.Consistency, since(start))
	return st
}

// migrate applies the migrations, up to three times: a multi-node Cassandra 5.0 cluster
// now and then refuses a CREATE of the migrations even on one coordinator (a view's
// schema as another node pushed it, "Partition key column mismatch"); the keyspace is
// then dropped and migrated again. The setup is not what the fault tests test.
func migrate(ctx context.Context, t testing.TB, cfg cql.Config, rf int) {
	t.Helper()
	for attempt := 1; ; attempt++ {
		err := migrations.Apply(ctx, cfg.Keyspace, migrations.Replication{Factor: rf}, cfg.SchemaSession)
		if err == nil {
			return
		}
		if attempt == 3 {
			t.Fatalf("setup %s, attempt %d: %v", cfg.Keyspace, attempt, err)
		}
		t.Logf("setup %s, attempt %d: %v; dropping the keyspace and migrating again", cfg.Keyspace, attempt, err)
		admin, err := cfg.SchemaSession("")
		if err != nil {
			t.Fatalf("setup %s: %v", cfg.Keyspace, err)
		}
		err = migrations.DropKeyspace(ctx, admin, cfg.Keyspace)
		admin.Close()
		if err != nil {
			t.Fatalf("setup %s: dropping it after a failed migration: %v", cfg.Keyspace, err)
		}
		time.Sleep(5 * time.Second)
	}
}

// newPipeline is the pipeline `indexer run` builds: analytics rows attached, CQL
// retries counted.
func newPipeline(st *store.Store, tip uint32, m *ingest.Metrics, log *slog.Logger) *ingest.Pipeline {
	st.OnRetry(func(string, int, error) { m.Retries.Inc() })
	p := ingest.New(sim.New(simOptions(tip)), st, ingest.Config{NodeID: 1, StopAt: tip}, m, log)
	p.AddRows(analytics.Rows)
	return p
}

// ingestAll runs an uninterrupted pipeline over 1..tip.
func ingestAll(t testing.TB, st *store.Store, tip uint32) time.Duration {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	start := time.Now()
	if err := newPipeline(st, tip, ingest.NewMetrics(nil), quietLogger()).Run(ctx); err != nil {
		t.Fatalf("ingest 1..%d: %v", tip, err)
	}
	return time.Since(start)
}

// dump reads a whole keyspace, bookkeeping tables left out.
func dump(t testing.TB, s *gocql.Session, keyspace string) map[string][]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	d, err := testcontainers.Dump(ctx, s, keyspace, bookkeeping...)
	if err != nil {
		t.Fatalf("dump %s: %v", keyspace, err)
	}
	return d
}

func countRows(d map[string][]string) int {
	n := 0
	for _, rows := range d {
		n += len(rows)
	}
	return n
}

// record is one captured log line.
type record struct {
	at    time.Time
	level slog.Level
	msg   string
	attrs string
}

// capture is a slog handler keeping every record (and echoing warnings and errors to
// the test log while the test runs).
type capture struct {
	*captured
	attrs []slog.Attr
}

type captured struct {
	mu      sync.Mutex
	records []record
	echo    func(string)
	done    atomic.Bool
}

func newCapture(t testing.TB) *capture {
	c := &capture{captured: &captured{echo: func(s string) { t.Log(s) }}}
	t.Cleanup(func() { c.done.Store(true) })
	return c
}

func (c *capture) Enabled(context.Context, slog.Level) bool { return true }

func (c *capture) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	for _, a := range c.attrs {
		fmt.Fprintf(&b, " %s", a)
	}
	r.Attrs(func(a slog.Attr) bool {
		fmt.Fprintf(&b, " %s", a)
		return true
	})
	rec := record{at: r.Time, level: r.Level, msg: r.Message, attrs: b.String()}
	c.mu.Lock()
	c.records = append(c.records, rec)
	c.mu.Unlock()
	if r.Level >= slog.LevelWarn && !c.done.Load() {
		c.echo(fmt.Sprintf("log %s %s%s", r.Level, r.Message, rec.attrs))
	}
	return nil
}

func (c *capture) WithAttrs(as []slog.Attr) slog.Handler {
	return &capture{captured: c.captured, attrs: append(append([]slog.Attr{}, c.attrs...), as...)}
}

func (c *capture) WithGroup(string) slog.Handler { return c }

// matching returns the records with message msg.
func (c *captured) matching(msg string) []record {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []record
	for _, r := range c.records {
		if r.msg == msg {
			out = append(out, r)
		}
	}
	return out
}

func quietLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

// pausedSampler polls the Paused gauge: the pipeline holds it at 1 only while it
// sleeps before a retry, so a sampler sees it go up and down.
type pausedSampler struct {
	stop    chan struct{}
	done    chan struct{}
	samples atomic.Int64
	ones    atomic.Int64
	first   atomic.Int64 // unix nanos of the first sample at 1
}

func samplePaused(m *ingest.Metrics, every time.Duration) *pausedSampler {
	s := &pausedSampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-tick.C:
			}
			s.samples.Add(1)
			if testutil.ToFloat64(m.Paused) == 1 {
				s.ones.Add(1)
				s.first.CompareAndSwap(0, time.Now().UnixNano())
			}
		}
	}()
	return s
}

func (s *pausedSampler) Stop() { close(s.stop); <-s.done }

// waitFor polls cond every 20ms until it holds or d passes.
func waitFor(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}

func since(t time.Time) time.Duration { return time.Since(t).Round(time.Millisecond) }

func slogger(c *capture) *slog.Logger { return slog.New(c) }
