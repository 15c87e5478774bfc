package analytics

import (
	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// analyticsAPI serves the analytics families and the dashboard.
type analyticsAPI struct{ *rest.Reads }

// New is the surface over r.
func New(r *rest.Reads) *analyticsAPI { return &analyticsAPI{r} }
