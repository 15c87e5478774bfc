package poi

import (
	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// poiAPI serves inx-chronicle's proof-of-inclusion API.
type poiAPI struct{ *rest.Reads }

// New is the surface over r.
func New(r *rest.Reads) *poiAPI { return &poiAPI{r} }
