package api

// poiRoutes are the proof-of-inclusion routes under /api/poi/v1 (inx-chronicle's).
func (s *Server) poiRoutes() []route { return nil }
