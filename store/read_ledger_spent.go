package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// The spent twin's reads (migration 000012): the same pages as the unspent tables'
// (read_ledger.go, read_ledger_newest.go), of outputs since spent.

// SpentPage reads up to req.Size spent outputs of kind created in partition rng within
// span, in TIP-26 order.
func (st *Store) SpentPage(ctx context.Context, kind string, rng int32, span Span, req PageRequest) (
	[]UnspentRow, []byte, error) {
	return st.unspentRows(ctx, cql.SpentPage, []any{kind, rng}, rng, span, req)
}

// SpentByAddressPage reads up to req.Size spent outputs of kind naming address in role,
// created in partition rng within span, in TIP-26 order.
func (st *Store) SpentByAddressPage(ctx context.Context, address string, rng int32, kind, role string, span Span,
	req PageRequest) ([]UnspentRow, []byte, error) {
	return st.unspentRows(ctx, cql.SpentByAddressPage, []any{address, rng, kind, role}, rng, span, req)
}

// SpentPageNewest is SpentPage newest first (reverse TIP-26 order).
func (st *Store) SpentPageNewest(ctx context.Context, kind string, rng int32, span Span, req PageRequest) (
	[]UnspentRow, []byte, error) {
	return st.unspentRowsNewest(ctx, cql.SpentPageNewest, []any{kind, rng}, span, req)
}

// SpentByAddressPageNewest is SpentByAddressPage newest first.
func (st *Store) SpentByAddressPageNewest(ctx context.Context, address string, rng int32, kind, role string,
	span Span, req PageRequest) ([]UnspentRow, []byte, error) {
	return st.unspentRowsNewest(ctx, cql.SpentByAddressPageNewest, []any{address, rng, kind, role}, span, req)
}

// SpentTwinHolds reports whether the spent twin holds milestone index's spends: whether
// the milestone was written by an indexer that writes the twin.
func (st *Store) SpentTwinHolds(ctx context.Context, index uint32) (bool, error) {
	var got int32
	err := st.s.Scan(ctx, cql.SpentMilestone, []any{RangeID(index, st.ChunkSize), int32(index)}, &got)
	if errors.Is(err, gocql.ErrNotFound) {
		return false, nil
	} else if err != nil {
		return false, fmt.Errorf("spent twin of milestone %d: %w", index, err)
	}
	return true, nil
}
