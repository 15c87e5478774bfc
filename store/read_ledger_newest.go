package store

import (
	"context"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// UnspentPageNewest reads up to req.Size unspent outputs of kind created in partition
// rng within span, newest first (reverse TIP-26 order).
func (st *Store) UnspentPageNewest(ctx context.Context, kind string, rng int32, span Span, req PageRequest) (
	[]UnspentRow, []byte, error) {
	return st.unspentRowsNewest(ctx, cql.UnspentPageNewest, []any{kind, rng}, span, req)
}

// UnspentByAddressPageNewest reads up to req.Size unspent outputs of kind naming
// address in role, created in partition rng within span, newest first.
func (st *Store) UnspentByAddressPageNewest(ctx context.Context, address string, rng int32, kind, role string,
	span Span, req PageRequest) ([]UnspentRow, []byte, error) {
	return st.unspentRowsNewest(ctx, cql.UnspentByAddressPageNewest, []any{address, rng, kind, role}, span, req)
}

// unspentRowsNewest reads one page of a newest-first statement whose binds are key then
// a span. A page resumes below its last row (the paging state is that row's position,
// the exclusive end of the next read), never from the driver's paging state, as the
// oldest-first reads do; the reads are not sliced, so a newest-first read that crosses
// more tombstones than the node's limit fails.
func (st *Store) unspentRowsNewest(ctx context.Context, stmt *cql.Statement, key []any, span Span, req PageRequest) (
	[]UnspentRow, []byte, error) {
	if sl, ok := decodeSlice(req.State); ok {
		span.To = sl.From
	}
	args := append(append([]any{}, key...), span.binds()...)
	rows, next, err := readRows[UnspentRow](ctx, st, stmt, args, PageRequest{Size: req.Size})
	for err == nil && len(rows) == 0 && len(next) > 0 { // an empty page with more: read on
		rows, next, err = readRows[UnspentRow](ctx, st, stmt, args, PageRequest{Size: req.Size, State: next})
	}
	if err != nil || len(next) == 0 || len(rows) == 0 {
		return rows, nil, err
	}
	last := rows[len(rows)-1]
	return rows, slice{From: Position{CreatedAt: last.CreatedAt, OutputID: last.OutputID}}.encode(), nil
}
