package api

// analyticsAPI serves the analytics families and the dashboard.
type analyticsAPI struct{ *reads }

// newAnalyticsAPI is the surface over r.
func newAnalyticsAPI(r *reads) *analyticsAPI { return &analyticsAPI{r} }
