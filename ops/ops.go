// Package ops serves the operational endpoints every process has: /metrics, /healthz, /readyz.
package ops

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"regexp"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Handler serves /metrics, /healthz, /readyz (see Serve) and the Go runtime's profiles
// under /debug/pprof/ (net/http/pprof: heap, goroutine, profile, trace, ...). It belongs
// on the ops address only, never on a public one: profiles name the code and its data.
func Handler(reg *prometheus.Registry, ready func(context.Context) error) http.Handler {
	mux := http.NewServeMux()
	profiles(mux)
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	probe := NewProbe("ready", func(ctx context.Context) (struct{}, error) { return struct{}{}, ready(ctx) })
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), ProbeTimeout)
		defer cancel()
		if _, err := probe.Get(ctx); err != nil {
			w.Header().Set("Retry-After", "1")
			http.Error(w, NotReady, http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("ready\n"))
	})
	return mux
}

// NotReady is /readyz's body when the check fails; the failure's detail is logged.
const NotReady = "not ready: the database does not answer"

// NewRegistry is a Prometheus registry with the Go and process collectors. Beside the
// usual go_memstats_* it exports go_gc_heap_live_bytes, the heap the last GC marked
// live: heap in use also holds the garbage of the cycle under way, and only the live
// heap tells a leak from a busy minute.
func NewRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	live := collectors.GoRuntimeMetricsRule{Matcher: regexp.MustCompile(`^/gc/heap/live:bytes$`)}
	reg.MustRegister(collectors.NewGoCollector(collectors.WithGoCollectorRuntimeMetrics(live)),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// Serve serves /metrics, /healthz (the process runs), /readyz (ready returns nil) and
// /debug/pprof/ until ctx ends. /readyz answers from a Probe of ready (one call at a time, at most one
// a second, each under a context that ends after ProbeTimeout) with a generic body;
// ready's error goes to the log.
func Serve(ctx context.Context, addr string, reg *prometheus.Registry, ready func(context.Context) error) {
	if addr == "" {
		return
	}
	// WriteTimeout outlasts a CPU profile of pprof's default 30 s.
	srv := &http.Server{Addr: addr, Handler: Handler(reg, ready), ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout: 10 * time.Second, WriteTimeout: 70 * time.Second, IdleTimeout: 60 * time.Second}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	}()
	go func() {
		slog.Info("ops endpoints", "addr", addr, "paths", "/metrics /healthz /readyz /debug/pprof/")
		if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Error("ops server", "error", err)
		}
	}()
}
