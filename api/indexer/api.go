package indexer

import "github.com/stardust-indexer/stardust-indexer/api/rest"

// API serves TIP-26, the node's indexer API.
type API struct {
	*rest.Reads
	st Store
}

// New is the surface over r and st.
func New(r *rest.Reads, st Store) *API { return &API{Reads: r, st: st} }
