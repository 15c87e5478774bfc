package api

// surfaceRoutes are the routes of every surface, in the order they are documented.
func (s *Server) surfaceRoutes() []route {
	analytics := newAnalyticsAPI(s.reads)
	routes := newTablesAPI(s.reads).permanodeRoutes()                                 // the schema's reads
	routes = append(routes, newCoreAPI(s.reads, s.cfg.HealthMaxAge).coreRoutes()...)  // TIP-25, /api/core/v2
	routes = append(routes, newIndexerAPI(s.reads).indexerRoutes()...)                // TIP-26, /api/indexer/v1
	routes = append(routes, newExplorerAPI(s.reads, s.allRoutes).explorerRoutes()...) // /api/explorer/v2
	routes = append(routes, newPoiAPI(s.reads).poiRoutes()...)                        // /api/poi/v1
	routes = append(routes, analytics.familyRoutes()...)                              // /api/analytics/v2
	return append(routes, analytics.dashboardRoutes()...)                             // /dashboard
}

// allRoutes are the routes the server serves.
func (s *Server) allRoutes() []route { return s.routes }
