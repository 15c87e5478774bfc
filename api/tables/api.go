package tables

import (
	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// API serves the schema's own reads, one route per select of its tables.
type API struct{ *rest.Reads }

// New is the surface over r.
func New(r *rest.Reads) *API { return &API{r} }
