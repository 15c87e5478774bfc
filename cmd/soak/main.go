// Command soak samples a long run of the indexer and the API and reports whether their
// memory, goroutines and open files stayed flat (package soak; `make soak` runs it).
//
//	soak sample -indexer http://127.0.0.1:9100 -api http://127.0.0.1:9101 -every 10s -duration 24h -warmup 1h -out DIR
//	soak report -out DIR -warmup 1h      (table.txt and chart.svg again from DIR's CSV files)
//	soak reset -keyspace NAME            (drops the run's keyspace; CQL_* as for the indexer)
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cmd/soak/internal/soak"
	"github.com/stardust-indexer/stardust-indexer/cql"
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

var errUsage = errors.New("usage: soak sample|report|reset [flags]  (soak CMD -h for flags)")

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
