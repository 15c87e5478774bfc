package store

import (
	"context"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
)

// Reads of the node interface (TIP-25 core, /api/core/v2) beyond the other readers.

// maxBookedVersions bounds the rows read for one chain in one milestone (a chain has a
// version or two per milestone; the bound only caps a pathological key).
const maxBookedVersions = 64

// BookedOutput reads the output-table row of output id (whose decoded output is o),
// booked in milestone index: its booking time and, once spent, what spent it. One
// partition slice of one key; ErrNotFound when no such row exists.
func (st *Store) BookedOutput(ctx context.Context, id chain.OutputID, o *chain.Output, index uint32) (OutputRow, error) {
	t, err := outputTable(o.Kind)
	if err != nil {
		return OutputRow{}, err
	}
	stmt := cql.OutputsBooked[t.Table]
	args := []any{outputKey(o, id), st.RangeID(index), int32(index)}
	rows, _, err := st.outputPage(ctx, o.Kind, t, stmt, args, PageRequest{Size: maxBookedVersions})
	if err != nil {
		return OutputRow{}, err
	}
	for _, r := range rows {
		if r.OutputID == id.String() {
			return r, nil
		}
	}
	return OutputRow{}, ErrNotFound
}

// OutputCreations reads the output rows of an output in the transactions table: one
// per message carrying the transaction that created it, with the milestone that
// referenced that message and its inclusion state (none for a genesis output).
func (st *Store) OutputCreations(ctx context.Context, id chain.OutputID) ([]TxRow, error) {
	args := []any{id.TransactionID().String(), int16(id.Index()), VariantOutput}
	rows, err := cql.Records[TxRow](ctx, st.s, cql.TransactionOutputRows, args)
	for i := range rows {
		rows[i].TransactionID, rows[i].Index, rows[i].Variant = id.TransactionID().String(), id.Index(), VariantOutput
	}
	return rows, err
}
