package ingest

import (
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/hints"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// referencedMessage adds the rows of a message a milestone referenced.
func (b *builder) referencedMessage(w where, rm *chain.ReferencedMessage) {
	m, id := rm.Message, rm.ID.String()
	b.add(cql.InsertReferencedMessage, w.ts, "", id, int8(m.ProtocolVersion), rm.Raw, variantOf(m), parentStrings(m),
		int32(w.index), int32(rm.WhiteFlagIndex), int8(rm.InclusionState), int8(rm.ConflictReason))
	b.add(cql.InsertMessageByMilestone, w.ts, "messages_by_milestone", int32(w.index), int32(rm.WhiteFlagIndex), id)
	for _, p := range m.Parents {
		b.add(cql.InsertChild, w.ts, "parents/"+p.String(), p.String(), id, int32(w.index), w.at, int8(rm.InclusionState))
	}
	b.messageTag(w, id, m, int8(rm.InclusionState))
	b.transaction(w, id, m)
}

// unreferencedMessage adds the rows of a message seen but not referenced yet.
func (b *builder) unreferencedMessage(w where, um *chain.UnreferencedMessage) {
	m, id := um.Message, um.ID.String()
	b.add(cql.InsertUnreferencedMessage, w.ts, "", id, int8(m.ProtocolVersion), um.Raw, variantOf(m), parentStrings(m),
		int32(w.index), w.at)
	for _, p := range m.Parents {
		b.add(cql.InsertUnreferencedChild, w.ts, "parents/"+p.String(), p.String(), id, int32(w.index), w.at)
	}
	b.messageTag(w, id, m, 0)
	b.transaction(w, id, m)
	if tx, ok := m.Payload.(*chain.Transaction); ok {
		b.pendingOutputs(w, id, tx)
	}
}

func (b *builder) messageTag(w where, id string, m *chain.Message, state int8) {
	tag := tagText(messageTag(m))
	if tag == "" {
		return
	}
	part := "tags/" + tag + "/" + itoa(w.rng)
	if w.pending() {
		b.add(cql.InsertPendingTag, w.ts, part, tag, w.rng, int32(w.index), w.at, id, w.ttl)
	} else {
		b.add(cql.InsertTag, w.ts, part, tag, w.rng, int32(w.index), w.at, id, state)
	}
	b.hints.AddTag(tag, hints.TableMessage, w.rng)
}

// transaction adds the input, output and unlock rows of a message's transaction.
// Unlock rows live under the spent output's transaction and index (see cql.InsertTransactionRow).
func (b *builder) transaction(w where, msgID string, m *chain.Message) {
	tx, ok := m.Payload.(*chain.Transaction)
	if !ok {
		return
	}
	txID := tx.ID()
	for i, in := range tx.Inputs {
		b.transactionRow(w, txID, uint16(i), "input", msgID, chain.EncodeInput(in))
		if i < len(tx.Unlocks) {
			spend := store.Spend{TransactionID: txID, InputIndex: uint16(i), Unlock: chain.EncodeUnlock(tx.Unlocks[i])}
			b.transactionRow(w, in.TransactionID, in.Index, "unlock", msgID, store.EncodeSpend(spend))
		}
	}
	for j, out := range tx.Outputs {
		b.transactionRow(w, txID, uint16(j), "output", msgID, chain.EncodeOutput(out))
	}
}

// transactionRow adds one transactions row (pending or confirmed, as w says).
func (b *builder) transactionRow(w where, tx chain.TransactionID, idx uint16, variant, msgID string, data []byte) {
	part := "transactions/" + tx.String()
	if w.pending() {
		b.add(cql.InsertUnreferencedTransactionRow, w.ts, part, tx.String(), int16(idx), variant, msgID, data, int32(w.index))
		return
	}
	b.add(cql.InsertTransactionRow, w.ts, part, tx.String(), int16(idx), variant, msgID, data, int32(w.index), w.state)
}

// pendingOutputs indexes the outputs an unreferenced transaction would create, in the
// pending partition with a TTL.
func (b *builder) pendingOutputs(w where, msgID string, tx *chain.Transaction) {
	txID := tx.ID()
	for j := range tx.Outputs {
		b.output(w, chain.LedgerOutput{OutputID: chain.NewOutputID(txID, uint16(j)), Output: tx.Outputs[j]}, msgID)
	}
}
