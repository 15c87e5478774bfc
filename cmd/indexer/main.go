// Command indexer runs a stardust-indexer node.
//
//	indexer migrate    create the keyspace, apply the schema, record the chunk size
//	indexer bootstrap  load the whole ledger from Hornet snapshot files (TIP-35)
//	indexer run        ingest from a source (backfill, fill gaps, follow the tip)
//	indexer status     synced ranges, gaps and lag
//	indexer analytics  compute daily analytics for a date range
//	indexer export     write synced milestones to an archive file, or (-snapshot) the ledger as a TIP-35 snapshot
//	indexer import     ingest archive files (no node needed)
//	indexer verify     check (and -repair) that synced milestones have all their rows
//
// Connection settings come from CQL_* environment variables (see README) or flags.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	if len(os.Args) < 2 {
		usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: logLevel()})))
	cmds := map[string]func(context.Context, []string) error{
		"migrate": cmdMigrate, "bootstrap": cmdBootstrap, "run": cmdRun, "status": cmdStatus, "analytics": cmdAnalytics,
		"export": cmdExport, "import": cmdImport, "verify": cmdVerify,
	}
	cmd, ok := cmds[os.Args[1]]
	if !ok {
		usage()
		os.Exit(2)
	}
	if err := cmd(ctx, os.Args[2:]); err != nil {
		slog.Error(os.Args[1]+" failed", "error", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: indexer migrate|bootstrap|run|status|analytics|export|import|verify [flags]  (indexer CMD -h for flags)")
}

func logLevel() slog.Level {
	if os.Getenv("LOG_LEVEL") == "debug" {
		return slog.LevelDebug
	}
	return slog.LevelInfo
}
