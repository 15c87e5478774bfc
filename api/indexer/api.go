package indexer

import (
	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// API serves TIP-26, the node's indexer API.
type API struct{ *rest.Reads }

// New is the surface over r.
func New(r *rest.Reads) *API { return &API{r} }
