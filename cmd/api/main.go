// Command api serves the indexed ledger as a read-only JSON API.
//
//	api [-addr 127.0.0.1:8080] [-ops-addr ADDR] [-request-timeout 5s]
//
// The cluster comes from the CQL_* environment variables (see README). /metrics,
// /healthz and /readyz are served on -ops-addr when given, else on -addr next to the
// API and /openapi.json.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/ops"
	"github.com/stardust-indexer/stardust-indexer/store"
)

type flags struct {
	addr, opsAddr  string
	requestTimeout time.Duration
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	level := slog.LevelInfo
	if os.Getenv("LOG_LEVEL") == "debug" {
		level = slog.LevelDebug
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level})))
	if err := run(ctx, os.Args[1:]); err != nil {
		slog.Error("api failed", "error", err)
		os.Exit(1)
	}
}

func parseFlags(args []string) (flags, error) {
	var f flags
	fs := flag.NewFlagSet("api", flag.ContinueOnError)
	fs.StringVar(&f.addr, "addr", "127.0.0.1:8080", "address the API listens on")
	fs.StringVar(&f.opsAddr, "ops-addr", "", "separate address for /metrics, /healthz, /readyz (empty: served on -addr)")
	fs.DurationVar(&f.requestTimeout, "request-timeout", 5*time.Second, "deadline of each request's queries")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	if f.requestTimeout <= 0 {
		return f, fmt.Errorf("-request-timeout %s: want a positive duration", f.requestTimeout)
	}
	return f, nil
}

func run(ctx context.Context, args []string) error {
	f, err := parseFlags(args)
	if err != nil {
		return err
	}
	cfg, err := cql.DefaultConfig().FromEnv()
	if err != nil {
		return err
	}
	st, err := openStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer st.S.Close()
	reg := ops.NewRegistry()
	srv := api.New(st, api.Config{RequestTimeout: f.requestTimeout, Registry: reg, Ops: f.opsAddr == ""})
	if f.opsAddr != "" {
		ops.Serve(ctx, f.opsAddr, reg, func() error {
			pctx, cancel := context.WithTimeout(ctx, f.requestTimeout)
			defer cancel()
			return st.Ping(pctx)
		})
	}
	slog.Info("api serving", "addr", f.addr, "ops_addr", f.opsAddr, "cluster", cfg.String(), "chunk_size", st.ChunkSize)
	return serve(ctx, api.NewHTTPServer(f.addr, srv.Handler(), f.requestTimeout))
}

// openStore connects, waiting for a cluster that is not up yet (retryable errors) for
// a while; a keyspace that is not migrated fails at once.
func openStore(ctx context.Context, cfg cql.Config) (*store.Store, error) {
	deadline := time.Now().Add(time.Minute)
	for {
		st, err := store.Open(ctx, cfg, 0)
		switch {
		case err == nil:
			return st, nil
		case !cql.Retryable(err):
			return nil, fmt.Errorf("%w (was keyspace %q created with `indexer migrate`?)", err, cfg.Keyspace)
		case time.Now().After(deadline):
			return nil, err
		}
		slog.Warn("database not reachable yet, retrying", "cluster", cfg.String(), "error", err)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(2 * time.Second):
		}
	}
}

// serve runs hs until ctx ends, then lets requests in flight finish.
func serve(ctx context.Context, hs *http.Server) error {
	errc := make(chan error, 1)
	go func() { errc <- hs.ListenAndServe() }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(shut); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	slog.Info("api stopped")
	return nil
}
