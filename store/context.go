package store

import (
	"context"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// RowCount counts the rows the store's reads under one context returned.
type RowCount = cql.RowCount

// WithRowCount returns a context under which every read of the store adds the rows it
// returned to the RowCount it also returns (safe across goroutines).
func WithRowCount(ctx context.Context) (context.Context, *RowCount) { return cql.WithRowCount(ctx) }

// NoRetries returns a context under which the store's statements are tried once: for
// checks that answer from a deadline (probes) rather than wait out the retries.
func NoRetries(ctx context.Context) context.Context { return cql.NoRetries(ctx) }
