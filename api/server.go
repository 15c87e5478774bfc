// Package api serves the indexed ledger as a read-only JSON API over HTTP: messages,
// transactions, milestones, tags, outputs of every kind, analytics and the sync status.
// Every query runs under a per-request deadline; list routes walk only the ms_range_id
// partitions the hint tables name, newest first, and page with an opaque cursor. With
// an admin token configured, two POST routes (run a daily analytics job, re-sync a
// milestone range) take that token as a bearer token.
package api

import (
	"context"
	"crypto/sha256"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/api/tip28"
	"github.com/stardust-indexer/stardust-indexer/ops"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Config tunes a Server.
type Config struct {
	// RequestTimeout bounds every request's queries (default 5s); past it the answer is 503.
	RequestTimeout time.Duration
	// Registry receives the request metrics; nil: a private one.
	Registry *prometheus.Registry
	// Ops also serves /metrics, /healthz and /readyz on the API's own handler (false
	// when a separate listener serves them, see cmd/api -ops-addr).
	Ops bool
	// AdminToken, when set, enables the admin routes (POST /admin/...), which require it
	// as a bearer token; unset, they do not exist (404). The server keeps only its
	// SHA-256. See CheckAdminToken.
	AdminToken Secret
	// AdminTimeout bounds an admin request's work (default 1m).
	AdminTimeout time.Duration
	// HealthMaxAge: the node interface's /health (and /info's isHealthy) says healthy
	// while the newest indexed milestone is at most this old (default DefaultHealthMaxAge).
	HealthMaxAge time.Duration
	// AllowOrigins are the origins whose pages may read answers (CORS): "*" for any;
	// none by default. See ParseAllowedOrigins.
	AllowOrigins []string
	// Limits are the per-client and global request limits (zero: none). See Limits.
	Limits Limits
	// ReadToken, when set, is required as a bearer token by every route but the probes
	// and the admin routes (which take the admin token). Only its SHA-256 is kept.
	ReadToken Secret
	// MovingMaxAge is the max-age of answers that change with the next milestone (lists,
	// balances, unspent outputs, status) and of 404s (default DefaultMovingMaxAge, the
	// milestone interval); answers that never change are cached for a year. See
	// docs/caching.md.
	MovingMaxAge time.Duration
	// MaxLiveStreams and MaxLiveStreamsPerClient cap the open event streams, in all and
	// per client (defaults DefaultMaxLiveStreams, DefaultMaxLiveStreamsPerClient); past
	// them a new stream is answered 429.
	MaxLiveStreams, MaxLiveStreamsPerClient int
	// SlowFlush: a live stream whose client takes longer than this to accept one flush is
	// dropped, told where to resume (default DefaultSlowFlush).
	SlowFlush time.Duration
	// UnsharedStreamReads makes each event stream read its own events instead of sharing
	// the reads of the same milestones with the other streams: only for the benchmark
	// that compares the two.
	UnsharedStreamReads bool
	// MaxMQTTConnections and MaxMQTTConnectionsPerClient cap the TIP-28 broker's
	// connections, in all and per client (defaults tip28.DefaultMaxClients,
	// tip28.DefaultMaxClientsPerIP); past them an upgrade is answered 429.
	MaxMQTTConnections, MaxMQTTConnectionsPerClient int
}

// Server answers the API's routes from a store.
type Server struct {
	st      *store.Store
	cfg     Config
	metrics *metrics
	routes  []rest.Route
	mux     *http.ServeMux
	docOnce sync.Once
	docJSON []byte
	// adminSum is the SHA-256 of the admin token (meaningful when admin routes exist).
	adminSum [sha256.Size]byte
	adminSeq atomic.Uint64        // numbers admin requests, for lease owners
	guard    *guard               // limits and read token (protect.go)
	ready    *ops.Probe[struct{}] // /readyz's ping
	known    knownTags            // tags of immutable answers, for 304s without a read (cache_known.go)
	live     *rest.ClientCaps     // the open live streams, under their caps (stream_caps.go)
	tips     *rest.TipWatch       // the ledger index, for the live streams and the broker
	broker   *tip28.Broker        // TIP-28 at tip28.Path (mqtt.go)
}

// New builds the server and its routes.
func New(st *store.Store, cfg Config) *Server {
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = defaultRequestTimeout
	}
	if cfg.Registry == nil {
		cfg.Registry = prometheus.NewRegistry()
	}
	if cfg.AdminTimeout <= 0 {
		cfg.AdminTimeout = defaultAdminTimeout
	}
	if cfg.HealthMaxAge <= 0 {
		cfg.HealthMaxAge = DefaultHealthMaxAge
	}
	if cfg.SlowFlush <= 0 {
		cfg.SlowFlush = DefaultSlowFlush
	}
	token := cfg.AdminToken
	readToken := cfg.ReadToken
	cfg.AdminToken, cfg.ReadToken = "", "" // only their sums are kept
	s := &Server{st: st, cfg: cfg, metrics: newMetrics(cfg.Registry), mux: http.NewServeMux(),
		guard: newGuard(cfg, readToken), live: newLiveStreams(cfg.MaxLiveStreams, cfg.MaxLiveStreamsPerClient)}
	// The probe's read is tried once: a probe answers from its deadline, not after retries.
	s.ready = ops.NewProbe("ready", func(ctx context.Context) (struct{}, error) {
		return struct{}{}, st.Ping(store.NoRetries(ctx))
	})
	s.tips = rest.NewTipWatch(st.LedgerIndex)
	s.broker = s.newBroker()
	s.routes = s.surfaceRoutes()
	s.routes = append(s.routes, s.docRoute())
	if cfg.Ops {
		s.routes = append(s.routes, s.opsRoutes()...)
	}
	if token != "" {
		s.adminSum = sha256.Sum256([]byte(token))
		s.routes = append(s.routes, s.adminRoutes()...)
	}
	for i := range s.routes {
		rt := &s.routes[i]
		s.guard.document(rt)
		s.mux.Handle(rt.MuxPattern(), s.metrics.instrument(rt.Pattern, s.guard.wrap(rt,
			http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.serve(w, r, rt) }))))
	}
	s.mux.Handle("/", s.metrics.instrument("unmatched", s.guard.wrap(nil, http.HandlerFunc(noRoute))))
	return s
}

// Handler is the API's HTTP handler: answers compressed with gzip for clients that
// accept it, under CORS, not cached unless their route says how (cache.go); TIP-28's
// WebSocket upgrades go to the broker (mqtt.go).
func (s *Server) Handler() http.Handler {
	return s.withMQTT(gzipWrap(withCORS(s.cfg.AllowOrigins, noStoreByDefault(s.mux))))
}

func noRoute(w http.ResponseWriter, r *http.Request) {
	rest.WriteError(w, r, rest.NotFound("no route %s (see /openapi.json)", r.URL.Path), nil)
}

// HTTPServer is NewHTTPServer for s's handler, with each client's connections capped
// (Limits.ClientConnections); its Shutdown closes the server (Close).
func (s *Server) HTTPServer(addr string) *http.Server {
	hs := NewHTTPServer(addr, s.Handler(), s.cfg.RequestTimeout)
	hs.ConnState = s.ConnState
	hs.RegisterOnShutdown(func() { _ = s.Close() })
	return hs
}

// ConnState counts each client's open connections and closes those over its cap: set it
// as the http.Server's ConnState (HTTPServer does).
func (s *Server) ConnState(c net.Conn, st http.ConnState) { s.guard.conns.state(c, st) }

// NewHTTPServer is an http.Server hardened against slow or greedy clients: bounded
// header, body and idle times, and small headers. The write timeout leaves the
// handler its whole request timeout plus time to send the answer; with
// Limits.MinSendRate the answer's own writes then move the deadline as the client reads.
func NewHTTPServer(addr string, h http.Handler, requestTimeout time.Duration) *http.Server {
	if requestTimeout <= 0 {
		requestTimeout = defaultRequestTimeout
	}
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      requestTimeout + 10*time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    16 << 10,
	}
}

// DefaultHealthMaxAge is how old the newest indexed milestone may be for /health to
// say healthy (Config.HealthMaxAge). Milestones come every ~5s; an indexer following
// the network stays well within it.
const DefaultHealthMaxAge = 2 * time.Minute
