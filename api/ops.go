package api

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/stardust-indexer/stardust-indexer/ops"
)

// docRoute serves the OpenAPI document of every route this server registered.
func (s *Server) docRoute() route {
	return route{pattern: "/openapi.json", tag: "ops", summary: "This API's OpenAPI 3 document", schema: "OpenAPI",
		plain: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(s.doc())
		})}
}

// opsRoutes are the operational endpoints, when served on the API's own listener.
func (s *Server) opsRoutes() []route {
	return []route{
		{pattern: "/healthz", cache: cacheNoStore, tag: "ops", summary: "The process runs", media: "text/plain",
			plain: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) })},
		{pattern: "/readyz", cache: cacheNoStore, tag: "ops", summary: "The database answers (503 otherwise)", media: "text/plain", canFail: true,
			plain: http.HandlerFunc(s.readyz)},
		{pattern: "/metrics", cache: cacheNoStore, tag: "ops", summary: "Prometheus metrics", media: "text/plain",
			plain: promhttp.HandlerFor(s.cfg.Registry, promhttp.HandlerOpts{})},
	}
}

// readyz answers from the last ping (Ready); the ping's error goes to the log only.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.RequestTimeout)
	defer cancel()
	if err := s.Ready(ctx); err != nil {
		writeError(w, r, &apiError{Status: http.StatusServiceUnavailable, Title: "not ready", Expected: true,
			Detail: ops.NotReady, RetryAfter: retryAfterSeconds}, nil)
		return
	}
	_, _ = w.Write([]byte("ready\n"))
}

// Ready is nil while the database answers a ping: the last ping, refreshed at most
// once a second by one goroutine, tried once under a deadline (probe).
func (s *Server) Ready(ctx context.Context) error {
	_, err := s.ready.Get(ctx)
	return err
}

// doc is the OpenAPI document, built once from the route table.
func (s *Server) doc() []byte {
	s.docOnce.Do(func() {
		s.docJSON, _ = json.MarshalIndent(s.openAPI(), "", "  ")
	})
	return s.docJSON
}
