package api

// indexerAPI serves TIP-26, the node's indexer API.
type indexerAPI struct{ *reads }

// newIndexerAPI is the surface over r.
func newIndexerAPI(r *reads) *indexerAPI { return &indexerAPI{r} }
