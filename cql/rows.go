package cql

import (
	"context"
	"sync/atomic"
)

// RowCount counts the rows the reads made under one context returned, across every
// goroutine that shares it: the API charges a request by what it read.
type RowCount struct{ n atomic.Int64 }

// Rows is the number of rows counted so far.
func (c *RowCount) Rows() int64 { return c.n.Load() }

type rowCountKey struct{}

// WithRowCount returns a context whose reads (Scan, Records, RecordPage, GetRecord, MapRows) add
// the rows they return to the RowCount it also returns, rows of retried attempts
// included: they were read too.
func WithRowCount(ctx context.Context) (context.Context, *RowCount) {
	c := &RowCount{}
	return context.WithValue(ctx, rowCountKey{}, c), c
}

// countRows adds n rows to ctx's RowCount, if it has one.
func countRows(ctx context.Context, n int) {
	if c, ok := ctx.Value(rowCountKey{}).(*RowCount); ok && n > 0 {
		c.n.Add(int64(n))
	}
}
