// Command api serves the indexed ledger as a read-only JSON API.
//
//	api [-addr 127.0.0.1:8080] [-ops-addr 127.0.0.1:9101] [-request-timeout 5s]
//	    [-admin-token-file PATH] [-admin-timeout 1m]
//	    [-rate 50] [-burst 100] [-client-concurrency 16] [-max-in-flight 256]
//	    [-client-queue 256] [-queue-wait 4s] [-client-connections 256] [-min-send-rate 4096]
//	    [-trusted-proxy CIDR,...] [-read-token-file PATH]
//
// The cluster comes from the CQL_* environment variables (see README). /metrics,
// /healthz and /readyz are served on -ops-addr (loopback by default), or on -addr next
// to the API and /openapi.json when -ops-addr is empty. The admin routes (POST /admin/...) exist only with an admin
// token, read from -admin-token-file or the API_ADMIN_TOKEN variable; the token is
// never logged. Every route but the probes is limited per client and in all, and with
// a read token (-read-token-file or API_READ_TOKEN) requires it, but for the dashboard's
// page and files, which hold no data (docs/api-protection.md).
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
	"github.com/stardust-indexer/stardust-indexer/api/tip28"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/internal/wait"
	"github.com/stardust-indexer/stardust-indexer/ops"
	"github.com/stardust-indexer/stardust-indexer/store"
)

type flags struct {
	addr, opsAddr       string
	requestTimeout      time.Duration
	adminTokenFile      string
	adminTimeout        time.Duration
	healthMaxAge        time.Duration
	movingMaxAge        time.Duration
	maxStreams          int
	maxStreamsPerClient int
	maxMQTT             int
	maxMQTTPerClient    int
	allowOrigins        []string
	protect             protectFlags // limits and read token (protect.go)
}

// adminTokenEnv is the variable that may hold the admin token (instead of a file).
const adminTokenEnv = "API_ADMIN_TOKEN"

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

// DefaultOpsAddr is -ops-addr's default: loopback, so that /metrics and /readyz reach
// only this host's monitoring unless an address is given.
const DefaultOpsAddr = "127.0.0.1:9101"

func parseFlags(args []string) (flags, error) {
	var f flags
	fs := flag.NewFlagSet("api", flag.ContinueOnError)
	fs.StringVar(&f.addr, "addr", "127.0.0.1:8080", "address the API listens on")
	fs.StringVar(&f.opsAddr, "ops-addr", DefaultOpsAddr,
		"address for /metrics, /healthz, /readyz (empty: served on -addr, open to the API's clients)")
	fs.DurationVar(&f.requestTimeout, "request-timeout", 5*time.Second, "deadline of each request's queries")
	fs.StringVar(&f.adminTokenFile, "admin-token-file", "",
		"file holding the admin token, which enables POST /admin/... (or set "+adminTokenEnv+"; neither: no admin routes)")
	fs.DurationVar(&f.adminTimeout, "admin-timeout", time.Minute, "deadline of each admin request's work")
	fs.DurationVar(&f.healthMaxAge, "health-max-age", api.DefaultHealthMaxAge,
		"GET /health (TIP-25) answers 503 once the newest indexed milestone is older than this")
	fs.DurationVar(&f.movingMaxAge, "moving-max-age", api.DefaultMovingMaxAge,
		"Cache-Control max-age of answers that change with the next milestone, and of 404s (docs/caching.md)")
	fs.IntVar(&f.maxStreams, "max-streams", api.DefaultMaxLiveStreams, "live event streams open at once, in all")
	fs.IntVar(&f.maxStreamsPerClient, "max-streams-per-client", api.DefaultMaxLiveStreamsPerClient,
		"live event streams one client may hold open")
	fs.IntVar(&f.maxMQTT, "max-mqtt-connections", tip28.DefaultMaxClients,
		"TIP-28 (MQTT over WebSocket, "+tip28.Path+") connections open at once, in all")
	fs.IntVar(&f.maxMQTTPerClient, "max-mqtt-connections-per-client", tip28.DefaultMaxClientsPerIP,
		"TIP-28 connections one client may hold open")
	origins := fs.String("allow-origin", "", "origins whose pages may read the API (CORS): * or a comma-separated "+
		"list of scheme://host[:port]; none by default")
	f.protect.register(fs)
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	if err := f.protect.check(); err != nil {
		return f, err
	}
	var err error
	if f.allowOrigins, err = api.ParseAllowedOrigins(*origins); err != nil {
		return f, err
	}
	if f.requestTimeout <= 0 {
		return f, fmt.Errorf("-request-timeout %s: want a positive duration", f.requestTimeout)
	}
	if f.healthMaxAge <= 0 {
		return f, fmt.Errorf("-health-max-age %s: want a positive duration", f.healthMaxAge)
	}
	if f.movingMaxAge < time.Second {
		return f, fmt.Errorf("-moving-max-age %s: want at least 1s", f.movingMaxAge)
	}
	if f.adminTimeout <= 0 {
		return f, fmt.Errorf("-admin-timeout %s: want a positive duration", f.adminTimeout)
	}
	return f, nil
}

// adminToken reads the admin token from the file or, without one, the environment
// ("" when neither is set: the admin routes stay off) and says where it came from.
// Neither the token nor the file's content ever appears in an error.
func adminToken(file string, getenv func(string) string) (api.Secret, string, error) {
	return tokenFrom("-admin-token-file", file, adminTokenEnv, getenv, api.CheckAdminToken)
}

func run(ctx context.Context, args []string) error {
	f, err := parseFlags(args)
	if err != nil {
		return err
	}
	token, tokenSource, err := adminToken(f.adminTokenFile, os.Getenv)
	if err != nil {
		return err
	}
	readTok, readSource, err := readToken(f.protect.readTokenFile, os.Getenv)
	if err != nil {
		return err
	}
	if readTok != "" && readTok == token {
		return fmt.Errorf("the read token and the admin token are the same: give them different values")
	}
	cfg, err := cql.DefaultConfig().FromEnv()
	if err != nil {
		return err
	}
	st, err := openStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer st.Close()
	reg := ops.NewRegistry()
	srv := api.New(st, api.Config{RequestTimeout: f.requestTimeout, Registry: reg, Ops: f.opsAddr == "",
		AdminToken: token, AdminTimeout: f.adminTimeout, AllowOrigins: f.allowOrigins, HealthMaxAge: f.healthMaxAge,
		Limits: f.protect.limits, ReadToken: readTok, MovingMaxAge: f.movingMaxAge,
		MaxLiveStreams: f.maxStreams, MaxLiveStreamsPerClient: f.maxStreamsPerClient,
		MaxMQTTConnections: f.maxMQTT, MaxMQTTConnectionsPerClient: f.maxMQTTPerClient})
	if token != "" {
		slog.Info("admin routes enabled (POST /admin/...)", "token_from", tokenSource, "admin_timeout", f.adminTimeout)
	}
	logProtection(f.protect.limits, readSource)
	if f.opsAddr != "" {
		ops.Serve(ctx, f.opsAddr, reg, srv.Ready)
	}
	slog.Info("api serving", "addr", f.addr, "ops_addr", f.opsAddr, "cluster", cfg.String(), "chunk_size", st.ChunkSize)
	return serve(ctx, srv.HTTPServer(f.addr))
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
		case cql.Classify(err) == cql.ClassAuth: // wrong login, missing GRANT, TLS: not retried
			return nil, err
		case !retryable(err):
			return nil, fmt.Errorf("%w (was keyspace %q created with `indexer migrate`?)", err, cfg.Keyspace)
		case time.Now().After(deadline):
			return nil, err
		}
		slog.Warn("database not reachable yet, retrying", "cluster", cfg.String(), "error", err)
		if err := wait.Sleep(ctx, 2*time.Second); err != nil {
			return nil, err
		}
	}
}

// retryable: the database may accept a new attempt (it is starting or overloaded).
func retryable(err error) bool {
	_, ok := store.Unavailable(err)
	return ok
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
