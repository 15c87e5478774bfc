package store

import (
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
)

// transaction adds the input, output and unlock rows of a message's transaction.
// Unlock rows live under the spent output's transaction and index (see VariantUnlock).
func (b *builder) transaction(w where, msgID string, m *chain.Message) {
	tx := m.TransactionOf()
	if tx == nil {
		return
	}
	txID := tx.ID()
	for i, in := range tx.Inputs {
		b.transactionRow(w, txID, uint16(i), VariantInput, msgID, chain.EncodeInput(in))
		if i < len(tx.Unlocks) {
			spend := Spend{TransactionID: txID, InputIndex: uint16(i), Unlock: chain.EncodeUnlock(tx.Unlocks[i])}
			b.transactionRow(w, in.TransactionID, in.Index, VariantUnlock, msgID, EncodeSpend(spend))
		}
	}
	for j, out := range tx.Outputs {
		b.transactionRow(w, txID, uint16(j), VariantOutput, msgID, chain.EncodeOutput(out))
	}
}

// transactionRow adds one transactions row (pending or confirmed, as w says).
func (b *builder) transactionRow(w where, tx chain.TransactionID, idx uint16, variant, msgID string, data []byte) {
	row := TxRow{TransactionID: tx.String(), Index: idx, Variant: variant, MessageID: msgID, Data: data}
	st := cql.InsertTransactionRow
	if w.pending() {
		st, row.EstMilestoneIndex = cql.InsertUnreferencedTransactionRow, ptr(int32(w.index))
	} else {
		row.MilestoneIndex, row.InclusionState = ptr(int32(w.index)), w.state
	}
	b.addRow(st, w.ts, "transactions/"+row.TransactionID, &row)
}
