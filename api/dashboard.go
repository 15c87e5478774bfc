package api

// dashboardRoutes serve the dashboard page.
func (s *Server) dashboardRoutes() []route { return nil }
