package api

import (
	"github.com/stardust-indexer/stardust-indexer/api/analytics"
	"github.com/stardust-indexer/stardust-indexer/api/core"
	"github.com/stardust-indexer/stardust-indexer/api/explorer"
	"github.com/stardust-indexer/stardust-indexer/api/indexer"
	"github.com/stardust-indexer/stardust-indexer/api/poi"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/api/tables"
)

// surfaceRoutes are the routes of every surface, in the order they are documented.
func (s *Server) surfaceRoutes() []rest.Route {
	analytics := analytics.New(s.Reads)
	routes := tables.New(s.Reads).Routes()                                     // the schema's reads
	routes = append(routes, core.New(s.Reads, s.cfg.HealthMaxAge).Routes()...) // TIP-25, /api/core/v2
	routes = append(routes, indexer.New(s.Reads).Routes()...)                  // TIP-26, /api/indexer/v1
	routes = append(routes, explorer.New(s.Reads, s.allRoutes).Routes()...)    // /api/explorer/v2
	routes = append(routes, poi.New(s.Reads).Routes()...)                      // /api/poi/v1
	routes = append(routes, analytics.Routes()...)                             // /api/analytics/v2
	return append(routes, analytics.DashboardRoutes()...)                      // /dashboard
}

// allRoutes are the routes the server serves.
func (s *Server) allRoutes() []rest.Route { return s.routes }
