package store

import (
	"context"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
)

// Variants of transactions rows (see cql.InsertTransactionRow).
const (
	VariantInput  = "input"
	VariantOutput = "output"
	VariantUnlock = "unlock" // stored under the SPENT output's transaction ID and index
)

// TxRow is one transactions row.
type TxRow struct {
	Index          uint16
	Variant        string
	MessageID      string
	Data           []byte
	InclusionState *int8  // nil while the carrying message is not referenced
	MilestoneIndex *int32 // nil while the carrying message is not referenced
}

// TransactionRows reads every row of a transaction (seed select 2): its inputs and
// outputs once per message carrying it, and the unlocks that spent its outputs.
func (st *Store) TransactionRows(ctx context.Context, txID string) ([]TxRow, error) {
	return cql.Collect(ctx, st.S, cql.TransactionRows, []any{txID}, func(it *gocql.Iter, r *TxRow) bool {
		var idx int16
		ok := it.Scan(&idx, &r.Variant, &r.MessageID, &r.Data, &r.InclusionState, &r.MilestoneIndex)
		r.Index = uint16(idx)
		return ok
	})
}

// OutputAndUnlocks reads the output rows of an output and the unlock rows of the
// transactions that spent (or tried to spend) it (seed select 1).
func (st *Store) OutputAndUnlocks(ctx context.Context, id chain.OutputID) ([]TxRow, error) {
	args := []any{id.TransactionID().String(), int16(id.Index())}
	return cql.Collect(ctx, st.S, cql.TransactionOutputAndUnlock, args, func(it *gocql.Iter, r *TxRow) bool {
		r.Index = id.Index()
		return it.Scan(&r.Variant, &r.MessageID, &r.Data, &r.InclusionState)
	})
}

// IncludedMessage returns the message whose inclusion applied a transaction (seed view
// select); ErrNotFound when no message carrying it was included.
func (st *Store) IncludedMessage(ctx context.Context, txID string) (string, error) {
	var id string
	err := st.S.Scan(ctx, cql.IncludedMessage, []any{txID, int8(chain.Included), int16(0), "input"}, &id)
	return id, notFound(err)
}
