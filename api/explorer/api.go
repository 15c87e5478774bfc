package explorer

import "github.com/stardust-indexer/stardust-indexer/api/rest"

// API serves inx-chronicle's explorer API.
type API struct {
	*rest.Reads
	st        Store
	allRoutes func() []rest.Route // every route the server serves, for GET /routes
	asOf      *ledgerAtCache      // ledger analytics computed on request
}

// New is the surface over r and st; allRoutes lists every route the server serves.
func New(r *rest.Reads, st Store, allRoutes func() []rest.Route) *API {
	return &API{Reads: r, st: st, allRoutes: allRoutes, asOf: newLedgerAtCache()}
}
