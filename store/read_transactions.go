package store

import (
	"context"

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
	TransactionID     string `cql:"transaction_id"` // set by the writer; the reader asked for it
	Index             uint16 `cql:"idx"`
	Variant           string `cql:"variant"`
	MessageID         string `cql:"message_id"`
	Data              []byte `cql:"data"`
	InclusionState    *int8  `cql:"inclusion_state"`     // nil while the carrying message is not referenced
	MilestoneIndex    *int32 `cql:"milestone_index"`     // nil while the carrying message is not referenced
	EstMilestoneIndex *int32 `cql:"est_milestone_index"` // written for a carrying message not referenced yet
}

// TransactionRows reads every row of a transaction (seed select 2): its inputs and
// outputs once per message carrying it, and the unlocks that spent its outputs.
func (st *Store) TransactionRows(ctx context.Context, txID string) ([]TxRow, error) {
	return cql.Records[TxRow](ctx, st.s, cql.TransactionRows, []any{txID})
}

// OutputAndUnlocks reads the output rows of an output and the unlock rows of the
// transactions that spent (or tried to spend) it (seed select 1).
func (st *Store) OutputAndUnlocks(ctx context.Context, id chain.OutputID) ([]TxRow, error) {
	args := []any{id.TransactionID().String(), int16(id.Index())}
	rows, err := cql.Records[TxRow](ctx, st.s, cql.TransactionOutputAndUnlock, args)
	for i := range rows {
		rows[i].Index = id.Index()
	}
	return rows, err
}

// IncludedMessage returns the message whose inclusion applied a transaction (seed view
// select); ErrNotFound when no message carrying it was included.
func (st *Store) IncludedMessage(ctx context.Context, txID string) (string, error) {
	var id string
	err := st.s.Scan(ctx, cql.IncludedMessage, []any{txID, int8(chain.Included), int16(0), VariantInput}, &id)
	return id, notFound(err)
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
