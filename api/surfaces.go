package api

import (
	"github.com/stardust-indexer/stardust-indexer/api/analytics"
	"github.com/stardust-indexer/stardust-indexer/api/core"
	"github.com/stardust-indexer/stardust-indexer/api/events"
	"github.com/stardust-indexer/stardust-indexer/api/explorer"
	"github.com/stardust-indexer/stardust-indexer/api/indexer"
	"github.com/stardust-indexer/stardust-indexer/api/poi"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/api/tables"
	"github.com/stardust-indexer/stardust-indexer/api/tip28"
	"github.com/stardust-indexer/stardust-indexer/api/wallet"
)

// surfaceRoutes are the routes of every surface, in the order they are documented. Every
// surface reads through one set of shared reads and the store (each declares the part of
// the store it reads as its own Store interface).
func (s *Server) surfaceRoutes() []rest.Route {
	r := rest.NewReads(s.st)
	families := analytics.New(r, s.st)
	routes := tables.New(r, s.st, s.chunkSize()).Routes()                                       // the schema's reads
	routes = append(routes, core.New(r, s.st, s.cfg.HealthMaxAge).Routes()...)                  // TIP-25, /api/core/v2
	routes = append(routes, indexer.New(r, s.st).Routes()...)                                   // TIP-26, /api/indexer/v1
	routes = append(routes, explorer.New(r, s.st, s.allRoutes).Routes()...)                     // /api/explorer/v2
	routes = append(routes, poi.New(r, s.st).Routes()...)                                       // /api/poi/v1
	routes = append(routes, wallet.New(r, s.st).Routes()...)                                    // /api/wallet/v1
	routes = append(routes, events.New(r, s.st, s.tips, s.cfg.UnsharedStreamReads).Routes()...) // /api/stream/v1
	routes = append(routes, tip28.Routes()...)                                                  // /api/mqtt/v1
	routes = append(routes, families.Routes()...)                                               // /api/analytics/v2
	return append(routes, families.DashboardRoutes()...)                                        // /dashboard
}

// allRoutes are the routes the server serves.
func (s *Server) allRoutes() []rest.Route { return s.routes }

// chunkSize is the store's milestones per ms_range_id partition (0 without a store: a
// server built only for its OpenAPI document).
func (s *Server) chunkSize() uint32 {
	if s.st == nil {
		return 0
	}
	return s.st.ChunkSize
}

// allSchemas are the OpenAPI component schemas of the server's answers and of every
// surface's (each surface declares its own).
func allSchemas() rest.Object {
	out := serverSchemas()
	for _, more := range []rest.Object{tables.Schemas(), core.Schemas(), indexer.Schemas(), explorer.Schemas(),
		poi.Schemas(), wallet.Schemas(), analytics.Schemas(), {"LedgerCoverage": rest.CoverageSchema()}} {
		for name, sch := range more {
			out[name] = sch
		}
	}
	return out
}
