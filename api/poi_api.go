package api

// poiAPI serves inx-chronicle's proof-of-inclusion API.
type poiAPI struct{ *reads }

// newPoiAPI is the surface over r.
func newPoiAPI(r *reads) *poiAPI { return &poiAPI{r} }
