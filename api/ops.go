package api

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/ops"
)

// docRoute serves the OpenAPI document of every route this server registered.
func (s *Server) docRoute() rest.Route {
	return rest.Route{Pattern: "/openapi.json", Tag: "ops", Summary: "This API's OpenAPI 3 document", Schema: "OpenAPI",
		Plain: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(s.doc())
		})}
}

// opsRoutes are the operational endpoints, when served on the API's own listener.
func (s *Server) opsRoutes() []rest.Route {
	return []rest.Route{
		{Pattern: "/healthz", Cache: rest.CacheNoStore, Tag: "ops", Summary: "The process runs", Media: "text/plain",
			Plain: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) })},
		{Pattern: "/readyz", Cache: rest.CacheNoStore, Tag: "ops", Summary: "The database answers (503 otherwise)", Media: "text/plain", CanFail: true,
			Plain: http.HandlerFunc(s.readyz)},
		{Pattern: "/metrics", Cache: rest.CacheNoStore, Tag: "ops", Summary: "Prometheus metrics", Media: "text/plain",
			Plain: promhttp.HandlerFor(s.cfg.Registry, promhttp.HandlerOpts{})},
	}
}

// readyz answers from the last ping (Ready); the ping's error goes to the log only.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.RequestTimeout)
	defer cancel()
	if err := s.Ready(ctx); err != nil {
		rest.WriteError(w, r, &rest.APIError{Status: http.StatusServiceUnavailable, Title: "not ready", Expected: true,
			Detail: ops.NotReady, RetryAfter: rest.RetryAfterSeconds}, nil)
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
