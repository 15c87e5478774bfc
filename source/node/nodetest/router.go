package nodetest

import (
	"net/http"
	"strings"
	"time"
)

// Route names for Count: one per TIP-25 route served, plus the catch-alls.
const (
	RouteInfo               = "info"
	RouteBlock              = "blocks/{blockId}"
	RouteBlockMetadata      = "blocks/{blockId}/metadata"
	RouteMilestoneByIndex   = "milestones/by-index/{index}"
	RouteMilestoneByID      = "milestones/{milestoneId}"
	RouteUTXOChangesByIndex = "milestones/by-index/{index}/utxo-changes"
	RouteUTXOChangesByID    = "milestones/{milestoneId}/utxo-changes"
	RouteOutput             = "outputs/{outputId}"
	RouteOutputMetadata     = "outputs/{outputId}/metadata"
	RouteHealth             = "health"
	RouteRoutes             = "routes"
	RouteUnknown            = "unknown"
	apiBase                 = "/api/core/v2/"
)

// handler answers one route; arg is the path's ID or index segment.
type handler func(s *Server, w http.ResponseWriter, r *http.Request, arg string)

// route maps a path to its route name, handler and argument. The core API paths are matched by
// hand: ServeMux patterns would conflict on /milestones/by-index/{i} vs /milestones/{id}/utxo-changes.
func route(path string) (string, handler, string) {
	switch path {
	case "/health":
		return RouteHealth, (*Server).health, ""
	case "/api/routes":
		return RouteRoutes, (*Server).routes, ""
	case apiBase + "info":
		return RouteInfo, (*Server).info, ""
	}
	seg := strings.Split(strings.TrimPrefix(path, apiBase), "/")
	if !strings.HasPrefix(path, apiBase) {
		seg = nil
	}
	switch {
	case len(seg) == 2 && seg[0] == "blocks":
		return RouteBlock, (*Server).block, seg[1]
	case len(seg) == 3 && seg[0] == "blocks" && seg[2] == "metadata":
		return RouteBlockMetadata, (*Server).blockMetadata, seg[1]
	case len(seg) == 3 && seg[0] == "milestones" && seg[1] == "by-index":
		return RouteMilestoneByIndex, (*Server).milestoneByIndex, seg[2]
	case len(seg) == 4 && seg[0] == "milestones" && seg[1] == "by-index" && seg[3] == "utxo-changes":
		return RouteUTXOChangesByIndex, (*Server).utxoByIndex, seg[2]
	case len(seg) == 2 && seg[0] == "milestones":
		return RouteMilestoneByID, (*Server).milestoneByID, seg[1]
	case len(seg) == 3 && seg[0] == "milestones" && seg[2] == "utxo-changes":
		return RouteUTXOChangesByID, (*Server).utxoByID, seg[1]
	case len(seg) == 2 && seg[0] == "outputs":
		return RouteOutput, (*Server).output, seg[1]
	case len(seg) == 3 && seg[0] == "outputs" && seg[2] == "metadata":
		return RouteOutputMetadata, (*Server).outputMetadata, seg[1]
	}
	return RouteUnknown, nil, ""
}

// ServeHTTP applies the controls (die, latency, JWT, injected 500s) and then the route.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == EventsPath {
		s.serveEvents(w, r) // public, as Hornet lists it
		return
	}
	name, h, arg := route(r.URL.Path)
	die, fail, authorized := s.gate(r, name, name == RouteHealth || name == RouteRoutes)
	if die {
		kill(w)
		return
	}
	s.sleep(r)
	switch {
	case !authorized:
		writeError(w, http.StatusUnauthorized, "missing or invalid JWT")
	case fail:
		writeError(w, http.StatusInternalServerError, "injected fault")
	case h == nil:
		writeError(w, http.StatusNotFound, "no route %s", r.URL.Path)
	case r.Method != http.MethodGet && r.Method != http.MethodHead:
		writeError(w, http.StatusMethodNotAllowed, "method %s not allowed", r.Method)
	default:
		h(s, w, r, arg)
	}
}

// sleep waits the configured latency, or less if the client goes away.
func (s *Server) sleep(r *http.Request) {
	s.mu.Lock()
	d := s.latency
	s.mu.Unlock()
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-r.Context().Done():
	}
}
