package api

// explorerRoutes are the explorer reads under /api/explorer/v2.
func (s *Server) explorerRoutes() []route {
	return nil
}

// explorerSchemas are the OpenAPI schemas the explorer routes name.
func explorerSchemas() object {
	return object{}
}
