// Command benchscale is `make bench-scale` (scripts/bench-scale.sh): the indexer's cost
// per milestone as the chain grows, on a simulated chain shaped like Shimmer's
// (cmd/benchscale/internal/benchscale). It only parses flags.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/stardust-indexer/stardust-indexer/cmd/benchscale/internal/benchscale"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

func main() {
	cfg := benchscale.Config{Out: os.Stdout, Log: os.Stderr}
	fs := flag.NewFlagSet("benchscale", flag.ExitOnError)
	fs.StringVar(&cfg.Bin, "bin", "bin", "directory of the indexer and api binaries")
	fs.StringVar(&cfg.Keyspace, "keyspace", "stardust_bench_scale", "keyspace of the run: DROPPED first, give one of its own")
	fs.IntVar(&cfg.N, "n", 50000, "milestones to index")
	fs.IntVar(&cfg.Step, "step", 1000, "milestones per row of the table (and the first size the routes are timed at)")
	fs.UintVar(&cfg.ChunkSize, "chunk-size", store.DefaultChunkSize, "milestones per ms_range_id partition")
	fs.Int64Var(&cfg.Seed, "seed", 1, "sim seed")
	// Shimmer: about 40 blocks and 5 transactions per milestone.
	fs.IntVar(&cfg.Messages, "messages", 39, "sim: messages per milestone besides the milestone's own")
	fs.Float64Var(&cfg.TxRatio, "tx-ratio", 5.0/39, "sim: share of messages carrying a transaction")
	fs.StringVar(&cfg.OpsAddr, "ops-addr", "127.0.0.1:19100", "the indexer's -ops-addr (its /metrics)")
	fs.StringVar(&cfg.APIAddr, "api-addr", "127.0.0.1:18090", "the API's -addr while the routes are timed")
	fs.IntVar(&cfg.Requests, "requests", 300, "timed requests per list route and size (the routes take turns)")
	nodeDir := fs.String("node-dir", "", "directory of the local node (devdb -dir): the routes are timed again once "+
		"its memtables are flushed (nodetool flush) and compactions are done")
	_ = fs.Parse(os.Args[1:])
	if *nodeDir != "" {
		n, err := testcontainers.Open(*nodeDir)
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchscale:", err)
			os.Exit(2)
		}
		cfg.Settle = func(ctx context.Context) error { return n.Settle(ctx, cfg.Keyspace) }
	}
	db, err := cql.DefaultConfig().FromEnv()
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchscale:", err)
		os.Exit(2)
	}
	cfg.DB = db
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := benchscale.Run(ctx, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "benchscale:", err)
		os.Exit(1)
	}
}
