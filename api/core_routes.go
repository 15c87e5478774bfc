package api

// coreRoutes are the TIP-25 core reads under /api/core/v2.
func (s *Server) coreRoutes() []route {
	return nil
}

// coreSchemas are the OpenAPI schemas the core routes name.
func coreSchemas() object {
	return object{}
}
