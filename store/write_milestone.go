package store

import (
	"github.com/stardust-indexer/stardust-indexer/chain"
)

// MilestoneWrites builds every row of a confirmed milestone but its sync row. start is
// the first milestone indexed (outputs it spends that were created earlier are written
// as created, see createdBeforeStart); pending names the messages of cm written as
// unreferenced before, whose pending rows it deletes.
func (st *Store) MilestoneWrites(cm *chain.ConfirmedMilestone, start uint32, pending map[chain.MessageID]PendingMark) *WriteSet {
	b := st.newBuilder(start)
	ts := Timestamp(cm.Index, PhaseConfirmed)
	w := where{index: cm.Index, rng: b.rangeOf(cm.Index), at: cm.Timestamp, ts: ts}
	for i := range cm.Messages {
		rm := &cm.Messages[i]
		mw := w
		mw.state = ptr(int8(rm.InclusionState))
		b.referencedMessage(mw, rm)
		if mark, ok := pending[rm.ID]; ok {
			b.dropPending(max(ts, Timestamp(mark.Est, PhasePending)+1), rm.Message, rm.ID, mark)
		}
	}
	b.milestone(ts, cm)
	created := w
	created.state = ptr(int8(chain.Included))
	cone := coneIDs(cm)
	for _, lo := range cm.Created {
		b.output(created, lo, lo.MessageID.String())
		if !cone[lo.MessageID] {
			b.creationRow(created, lo)
		}
	}
	spentTS := Timestamp(cm.Index, PhaseSpent)
	for _, ls := range cm.Consumed {
		if ls.MilestoneIndex < b.start {
			b.createdBeforeStart(ls.LedgerOutput)
		}
		b.spent(spentTS, ls)
	}
	b.spentTwinMilestone(spentTS, cm.Index)
	return &b.WriteSet
}

// createdBeforeStart writes the creation of an output spent now but created before the
// first indexed milestone, as that milestone would have: its output table row and, when a
// transaction created it (not a genesis output), its transactions row. So every output a
// range of milestones spends can be looked up, and its spend is not a row without a
// creation. The source gives its bytes, block and booking milestone.
func (b *builder) createdBeforeStart(lo chain.LedgerOutput) {
	w := where{index: lo.MilestoneIndex, rng: b.rangeOf(lo.MilestoneIndex), at: lo.Timestamp,
		ts: Timestamp(lo.MilestoneIndex, PhaseConfirmed), state: ptr(int8(chain.Included))}
	b.output(w, lo, lo.MessageID.String())
	b.creationRow(w, lo)
}

// coneIDs are the blocks of cm's cone. A milestone applied from a snapshot's diff has
// none: its created outputs' transactions rows come from the outputs (creationRow).
func coneIDs(cm *chain.ConfirmedMilestone) map[chain.MessageID]bool {
	ids := make(map[chain.MessageID]bool, len(cm.Messages))
	for i := range cm.Messages {
		ids[cm.Messages[i].ID] = true
	}
	return ids
}

// creationRow writes the transactions output row of an output whose block the write
// does not carry, when a transaction created it (not a genesis output): the row that
// finds an alias, NFT or foundry output's creation by output ID (StoredCreation).
func (b *builder) creationRow(w where, lo chain.LedgerOutput) {
	if lo.MessageID != (chain.MessageID{}) {
		b.transactionRow(w, lo.OutputID.TransactionID(), lo.OutputID.Index(), VariantOutput, lo.MessageID.String(),
			chain.EncodeOutput(lo.Output))
	}
}

// dropPending deletes the pending output and tag rows of a message now referenced, at
// ts; MilestoneWrites stamps the deletes above the pending rows whatever their estimate,
// as they touch only the pending partition.
func (b *builder) dropPending(ts int64, m *chain.Message, id chain.MessageID, mark PendingMark) {
	if tx := m.TransactionOf(); tx != nil {
		b.deletePending(ts, tx)
	}
	b.dropPendingTag(ts, m, id, mark)
}

// UnreferencedWrites builds the rows of messages seen but not referenced yet: in the
// pending partition, expiring after PendingTTL.
func (st *Store) UnreferencedWrites(msgs []chain.UnreferencedMessage) *WriteSet {
	b := st.newBuilder(0)
	for i := range msgs {
		um := &msgs[i]
		w := where{index: um.EstMilestoneIndex, rng: PendingRange, at: um.SeenAt,
			ts: Timestamp(um.EstMilestoneIndex, PhasePending), ttl: PendingTTL}
		b.unreferencedMessage(w, um)
	}
	return &b.WriteSet
}
