// Package benchscale measures how the indexer's cost per milestone grows with the chain
// (`make bench-scale`, docs/benchmarks.md): it runs bin/indexer on a simulated chain
// shaped like Shimmer's as users run it, reads its /metrics and its RSS every Step
// milestones, and times a few list routes of bin/api after the first Step milestones and
// again at the end.
package benchscale

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/loadtest"
	"github.com/stardust-indexer/stardust-indexer/migrations"
)

// Config is one run. The keyspace is dropped first: give one of its own.
type Config struct {
	Bin       string // directory of the indexer and api binaries
	DB        cql.Config
	Keyspace  string
	N, Step   int
	ChunkSize uint
	Seed      int64
	Messages  int     // sim: messages per milestone besides the milestone's own
	TxRatio   float64 // sim: share of them carrying a transaction
	OpsAddr   string  // the indexer's /metrics
	APIAddr   string
	Requests  int // timed requests per list route and size
	// Settle, when set, flushes the keyspace's memtables and waits out compactions; the
	// routes are then timed a second time at each size, read from SSTables alone.
	Settle   func(ctx context.Context) error
	Out, Log io.Writer
}

// Run ingests Step milestones, times the list routes, ingests up to N, times them again
// and prints the growth table, the slopes and the routes' medians at both sizes.
func Run(ctx context.Context, cfg Config) error {
	if cfg.N < 2*cfg.Step || cfg.Step < 1 {
		return fmt.Errorf("want N (%d) at least twice Step (%d)", cfg.N, cfg.Step)
	}
	if err := resetKeyspace(ctx, cfg); err != nil {
		return err
	}
	fmt.Fprintf(cfg.Out, "bench-scale: %d milestones of %d messages (+ the milestone's), %.0f%% carrying a transaction, "+
		"keyspace %s, chunk size %d; one row per %d milestones\n", cfg.N, cfg.Messages, 100*cfg.TxRatio, cfg.Keyspace,
		cfg.ChunkSize, cfg.Step)
	printHeader(cfg.Out)
	steps, err := ingest(ctx, cfg, 0, cfg.Step)
	if err != nil {
		return err
	}
	ids, small, err := measureRoutes(ctx, cfg, nil, cfg.Step)
	if err != nil {
		return err
	}
	more, err := ingest(ctx, cfg, cfg.Step, cfg.N)
	if err != nil {
		return err
	}
	steps = append(steps, more...)
	_, large, err := measureRoutes(ctx, cfg, ids, cfg.N)
	if err != nil {
		return err
	}
	printSlopes(cfg.Out, steps)
	printRoutes(cfg, ids, small, large)
	return nil
}

// resetKeyspace drops the run's keyspace (the indexer creates it again with -migrate).
func resetKeyspace(ctx context.Context, cfg Config) error {
	db, keyspace := cfg.DB, cfg.Keyspace
	if err := migrations.ValidKeyspace(keyspace); err != nil {
		return err
	}
	s, err := db.SchemaSession("")
	if err != nil {
		return err
	}
	defer s.Close()
	// A schema change can outlast the driver's timeout on a busy node, which goes on with
	// it: ask again (IF EXISTS makes a repeat harmless).
	for try := 1; ; try++ {
		err := migrations.DropKeyspace(ctx, s, keyspace)
		if err == nil || try == 3 || ctx.Err() != nil {
			return err
		}
		fmt.Fprintf(cfg.Log, "benchscale: dropping keyspace %s: %v; again\n", keyspace, err)
	}
}

// ingest runs bin/indexer over the sim chain up to milestone to (it resumes after from)
// and returns a step for every Step milestones. The indexer follows the tip (so that its
// /metrics can still be read at to) and is stopped once to is written.
func ingest(ctx context.Context, cfg Config, from, to int) ([]step, error) {
	p, err := start(cfg.Bin, "indexer", cfg.Keyspace, cfg.Log, "run", "-migrate",
		"-keyspace", cfg.Keyspace, "-chunk-size", strconv.FormatUint(uint64(cfg.ChunkSize), 10),
		"-source", "sim", "-sim-seed", strconv.FormatInt(cfg.Seed, 10), "-sim-messages", strconv.Itoa(cfg.Messages),
		"-sim-tx-ratio", strconv.FormatFloat(cfg.TxRatio, 'f', -1, 64), "-sim-backfill", strconv.Itoa(to),
		"-sim-every", "0", "-ops-addr", cfg.OpsAddr)
	if err != nil {
		return nil, err
	}
	defer p.stop()
	metricsURL := "http://" + cfg.OpsAddr + "/metrics"
	if err := waitHTTP(ctx, p, metricsURL); err != nil {
		return nil, err
	}
	c := &http.Client{Timeout: 10 * time.Second}
	prev, err := scrape(ctx, c, metricsURL)
	if err != nil {
		return nil, err
	}
	prev.milestone = float64(from) // the gauge is 0 until the process writes its first milestone
	var steps []step
	for mark := from + cfg.Step; mark <= to; {
		if ended, err := p.exited(); ended {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
		s, err := scrape(ctx, c, metricsURL)
		if err != nil {
			return nil, err
		}
		if s.milestone < float64(mark) {
			continue
		}
		if s.rssBytes, err = rss(p.pid()); err != nil {
			return nil, err
		}
		st := newStep(mark, prev, s)
		st.print(cfg.Out)
		steps = append(steps, st)
		prev = s
		for mark <= int(s.milestone) {
			mark += cfg.Step
		}
	}
	return steps, nil
}

// routeTimes are the list routes' medians at one size: as written (recent rows still in
// memtables) and, with Config.Settle, once flushed and compacted.
type routeTimes struct{ written, settled map[string]time.Duration }

// measureRoutes starts bin/api on the keyspace, finds keys with loadtest.Discover when
// ids is nil, and times the list routes with them (twice with Config.Settle).
func measureRoutes(ctx context.Context, cfg Config, ids *loadtest.IDs, newest int) (*loadtest.IDs, routeTimes, error) {
	var rt routeTimes
	p, err := start(cfg.Bin, "api", cfg.Keyspace, cfg.Log, "-addr", cfg.APIAddr, "-rate", "0", "-client-concurrency", "0")
	if err != nil {
		return nil, rt, err
	}
	defer p.stop()
	base := "http://" + cfg.APIAddr
	if err := waitHTTP(ctx, p, base+"/sync"); err != nil {
		return nil, rt, err
	}
	if ids == nil {
		if ids, err = loadtest.Discover(ctx, &http.Client{Timeout: 30 * time.Second}, base, 300); err != nil {
			return nil, rt, err
		}
	}
	routes := listRoutes(ids, newest)
	if rt.written, err = timeRoutes(ctx, base, routes, cfg.Requests); err != nil || cfg.Settle == nil {
		return ids, rt, err
	}
	if err := cfg.Settle(ctx); err != nil {
		return nil, rt, fmt.Errorf("flushing the keyspace: %w", err)
	}
	rt.settled, err = timeRoutes(ctx, base, routes, cfg.Requests)
	return ids, rt, err
}
