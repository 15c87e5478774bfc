package api

// indexerRoutes are the TIP-26 indexer routes under /api/indexer/v1.
func (s *Server) indexerRoutes() []route {
	return nil
}

// indexerSchemas are the OpenAPI schemas the indexer routes name.
func indexerSchemas() object {
	return object{}
}
