package explorer

import (
	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// explorerAPI serves inx-chronicle's explorer API.
type explorerAPI struct {
	*rest.Reads
	allRoutes func() []rest.Route // every route the server serves, for GET /routes
}

// New is the surface over r; allRoutes lists every route the server serves.
func New(r *rest.Reads, allRoutes func() []rest.Route) *explorerAPI {
	return &explorerAPI{Reads: r, allRoutes: allRoutes}
}
