// Command soak samples a long run of the indexer and the API and reports whether their
// memory, goroutines and open files stayed flat (package soak; `make soak` runs it).
//
//	soak sample -indexer http://127.0.0.1:9100 -api http://127.0.0.1:9101 -every 10s -duration 24h -warmup 1h -out DIR
//	soak report -out DIR -warmup 1h      (table.txt and chart.svg again from DIR's CSV files)
//	soak reset -keyspace NAME            (drops the run's keyspace; CQL_* as for the indexer)
//	soak compare -url http://127.0.0.1:8080 -indexer http://127.0.0.1:9100 -pids NODE,INDEXER -rate 200 -phase 60s -rounds 2 -out FILE
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cmd/soak/internal/soak"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/loadtest"
	"github.com/stardust-indexer/stardust-indexer/migrations"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		slog.Error("soak failed", "error", err)
		os.Exit(1)
	}
}

var errUsage = errors.New("usage: soak sample|report|reset|compare [flags]  (soak CMD -h for flags)")

func run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return errUsage
	}
	switch args[0] {
	case "sample":
		return sample(ctx, args[1:])
	case "report":
		return report(args[1:])
	case "reset":
		return reset(ctx, args[1:])
	case "compare":
		return compare(ctx, args[1:])
	}
	return errUsage
}

func sample(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("soak sample", flag.ContinueOnError)
	cfg := soak.Config{Log: os.Stderr}
	fs.StringVar(&cfg.IndexerURL, "indexer", "http://127.0.0.1:9100", "the indexer's ops listener")
	fs.StringVar(&cfg.APIURL, "api", "http://127.0.0.1:9101", "the API's ops listener")
	fs.DurationVar(&cfg.Every, "every", 10*time.Second, "sample period")
	fs.DurationVar(&cfg.Duration, "duration", time.Hour, "how long to sample")
	fs.DurationVar(&cfg.Warmup, "warmup", 0, "the start the verdicts leave out (default: a fifth of -duration)")
	fs.StringVar(&cfg.Dir, "out", ".dev/soak", "directory of samples.csv, latency.csv, table.txt, chart.svg")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if cfg.Warmup == 0 {
		cfg.Warmup = cfg.Duration / 5
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return err
	}
	return soak.Run(ctx, cfg)
}

func report(args []string) error {
	fs := flag.NewFlagSet("soak report", flag.ContinueOnError)
	dir := fs.String("out", ".dev/soak", "directory of samples.csv and latency.csv")
	warmup := fs.Duration("warmup", 0, "the start the verdicts leave out")
	if err := fs.Parse(args); err != nil {
		return err
	}
	return soak.Report(*dir, *warmup)
}

// reset drops the run's keyspace, so that each soak indexes from the simulated node's
// start (the indexer creates it again with -migrate).
func reset(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("soak reset", flag.ContinueOnError)
	keyspace := fs.String("keyspace", "", "the soak's own keyspace: DROPPED")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := migrations.ValidKeyspace(*keyspace); err != nil {
		return err
	}
	cfg, err := cql.DefaultConfig().FromEnv()
	if err != nil {
		return err
	}
	s, err := cfg.SchemaSession("")
	if err != nil {
		return fmt.Errorf("soak reset: %w", err)
	}
	defer s.Close()
	return migrations.DropKeyspace(ctx, s, *keyspace)
}

// compare measures the read mix while the indexer ingests and while ingest is paused
// (the processes of -pids stopped), and writes the table to -out and stdout.
func compare(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("soak compare", flag.ContinueOnError)
	cfg := soak.CompareConfig{Load: loadtest.OpenConfig{Clients: 64, DistinctClients: true, Seed: 1}, Log: os.Stderr}
	var pids, out string
	fs.StringVar(&cfg.Load.BaseURL, "url", "http://127.0.0.1:8080", "the API")
	fs.StringVar(&cfg.IndexerURL, "indexer", "http://127.0.0.1:9100", "the indexer's ops listener")
	fs.StringVar(&pids, "pids", "", "comma-separated processes stopped while ingest is paused (the node, then the indexer)")
	fs.Float64Var(&cfg.Load.Rate, "rate", 200, "requests per second")
	fs.DurationVar(&cfg.Load.Duration, "phase", time.Minute, "one phase's length")
	fs.IntVar(&cfg.Rounds, "rounds", 2, "rounds of an ingesting and a paused phase")
	fs.DurationVar(&cfg.Settle, "settle", 15*time.Second, "wait after a resume before the next phase")
	fs.StringVar(&out, "out", "", "also write the table here")
	if err := fs.Parse(args); err != nil {
		return err
	}
	signals, err := parsePids(pids)
	if err != nil {
		return err
	}
	cfg.Pause = signals
	c, err := soak.Compare(ctx, cfg)
	if err != nil {
		return err
	}
	if out != "" {
		if err := soak.WriteComparisonFile(out, c); err != nil {
			return err
		}
	}
	return soak.WriteComparison(os.Stdout, c)
}

func parsePids(list string) (soak.Signals, error) {
	var pids soak.Signals
	for _, f := range strings.Split(list, ",") {
		pid, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || pid <= 1 {
			return nil, fmt.Errorf("-pids %q: want comma-separated process ids", list)
		}
		pids = append(pids, pid)
	}
	return pids, nil
}
