package api

// tablesAPI serves the schema's own reads, one route per select of its tables.
type tablesAPI struct{ *reads }

// newTablesAPI is the surface over r.
func newTablesAPI(r *reads) *tablesAPI { return &tablesAPI{r} }
