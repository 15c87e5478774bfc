// Command simnode serves the simulated chain as a fake Hornet node of its own: TIP-25 REST
// (/api/core/v2) and TIP-28 events (ws://ADDR/api/mqtt/v1), a new milestone every -every,
// pruned past the newest -retain (package simnode). An indexer reads it as a node:
//
//	simnode -addr 127.0.0.1:14265 -every 200ms -keys-out .dev/sim-keys.json
//	indexer run -source node -node-url http://127.0.0.1:14265 -milestone-keys .dev/sim-keys.json
//
// The chain is the one `indexer run -source sim` makes with the same seed, messages,
// transaction ratio, milestone interval and spendable outputs.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cmd/simnode/internal/simnode"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr); err != nil {
		slog.Error("simnode failed", "error", err)
		os.Exit(1)
	}
}

// flags are the command line's settings.
type flags struct {
	cfg      simnode.Config
	backfill uint
	retain   uint
	keysOut  string
}

func (f *flags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.cfg.Addr, "addr", "127.0.0.1:14265", "address of the REST and event APIs")
	fs.DurationVar(&f.cfg.Every, "every", 200*time.Millisecond, "a new milestone every (0: none)")
	fs.UintVar(&f.backfill, "backfill", 100, "milestones confirmed at start (at least 2)")
	fs.UintVar(&f.retain, "retain", 2048, "milestones held; older ones are pruned and forgotten (0: all, memory grows)")
	fs.Int64Var(&f.cfg.Sim.Seed, "seed", 1, "generator seed (same seed, same chain)")
	fs.IntVar(&f.cfg.Sim.MessagesPerMilestone, "messages", 20, "messages per milestone")
	fs.Float64Var(&f.cfg.Sim.TransactionRatio, "tx-ratio", 0.5, "share of messages carrying a transaction")
	fs.DurationVar(&f.cfg.Sim.MilestoneInterval, "ms-interval", 10*time.Second, "milestone timestamp spacing")
	fs.IntVar(&f.cfg.Sim.SpendableOutputs, "spendable", 0,
		"keep the wallets' spendable outputs near this many, so a long run's load stays level (0: they grow)")
	fs.StringVar(&f.keysOut, "keys-out", "", "write the network's milestone keys here (the file -milestone-keys reads)")
}

func run(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("simnode", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f flags
	f.register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if f.backfill > 1<<31 || f.retain > 1<<31 {
		return fmt.Errorf("-backfill %d, -retain %d: want at most 2^31", f.backfill, f.retain)
	}
	f.cfg.Backfill, f.cfg.Retain = uint32(f.backfill), uint32(f.retain)
	if err := writeKeys(f.keysOut); err != nil {
		return err
	}
	n, err := simnode.Start(ctx, f.cfg)
	if err != nil {
		return err
	}
	defer n.Close()
	slog.Info("simulated node serving", "url", n.URL(), "network", sim.NetworkName, "confirmed", n.Confirmed(),
		"every", f.cfg.Every, "retain", f.cfg.Retain)
	return n.Run(ctx)
}

// writeKeys writes the milestone keys to path ("" : nowhere).
func writeKeys(path string) error {
	if path == "" {
		return nil
	}
	doc, err := simnode.KeysJSON()
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, doc, 0o644); err != nil {
		return fmt.Errorf("-keys-out: %w", err)
	}
	return nil
}
