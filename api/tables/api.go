package tables

import "github.com/stardust-indexer/stardust-indexer/api/rest"

// API serves the schema's own reads, one route per select of its tables.
type API struct {
	*rest.Reads
	st        Store
	chunkSize uint32 // milestones per ms_range_id partition, which GET /sync reports
}

// New is the surface over r and st.
func New(r *rest.Reads, st Store, chunkSize uint32) *API {
	return &API{Reads: r, st: st, chunkSize: chunkSize}
}
