package api

// familyRoutes are the routes of Chronicle's analytics families, /api/analytics/v2.
func (s *Server) familyRoutes() []route { return nil }
