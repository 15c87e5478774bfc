package api

// explorerAPI serves inx-chronicle's explorer API.
type explorerAPI struct {
	*reads
	allRoutes func() []route // every route the server serves, for GET /routes
}

// newExplorerAPI is the surface over r; allRoutes lists every route the server serves.
func newExplorerAPI(r *reads, allRoutes func() []route) *explorerAPI {
	return &explorerAPI{reads: r, allRoutes: allRoutes}
}
