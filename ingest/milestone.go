package ingest

import (
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// pendingMark is what the indexer wrote for a message while it was unreferenced; its
// pending rows are deleted once a milestone references it.
type pendingMark struct {
	est    uint32
	seenAt time.Time
}

// milestoneWrites builds every write of a confirmed milestone except its sync row.
// pending names the messages of cm that were written as unreferenced before.
func milestoneWrites(cm *chain.ConfirmedMilestone, rc rowConfig, pending map[chain.MessageID]pendingMark) *builder {
	b := newBuilder(rc)
	ts := store.Timestamp(cm.Index, store.PhaseConfirmed)
	w := where{index: cm.Index, rng: rc.rangeOf(cm.Index), at: cm.Timestamp, ts: ts}
	for i := range cm.Messages {
		rm := &cm.Messages[i]
		mw := w
		mw.state = int8(rm.InclusionState)
		b.referencedMessage(mw, rm)
		if mark, ok := pending[rm.ID]; ok {
			b.dropPending(ts, rm.Message, rm.ID, mark)
		}
	}
	b.milestone(ts, cm)
	created := w
	created.state = int8(chain.Included)
	for _, lo := range cm.Created {
		b.output(created, lo, lo.MessageID.String())
	}
	spentTS := store.Timestamp(cm.Index, store.PhaseSpent)
	for _, ls := range cm.Consumed {
		if ls.MilestoneIndex < rc.start {
			b.createdBeforeStart(ls.LedgerOutput)
		}
		b.spent(spentTS, ls)
	}
	return b
}

// milestone writes the milestone's row, and the message ID of each milestone whose
// carrying message this cone holds (normally the previous one): a milestone's own message
// is referenced only by the next milestone.
func (b *builder) milestone(ts int64, cm *chain.ConfirmedMilestone) {
	b.add(cql.InsertMilestone, ts, "", int32(cm.Index), cm.MilestoneID.String(), cm.Timestamp.Unix(), cm.Milestone.Encode())
	for index, msgID := range cm.CarriedMilestones() {
		b.add(cql.SetMilestoneMessage, ts, "", msgID.String(), int32(index))
	}
}

// createdBeforeStart writes the creation of an output spent now but created before the
// first indexed milestone, as that milestone would have: its output table row and, when a
// transaction created it (not a genesis output), its transactions row. So every output a
// range of milestones spends can be looked up, and its spend is not a row without a
// creation. The source gives its bytes, block and booking milestone.
func (b *builder) createdBeforeStart(lo chain.LedgerOutput) {
	w := where{index: lo.MilestoneIndex, rng: b.rangeOf(lo.MilestoneIndex), at: lo.Timestamp,
		ts: store.Timestamp(lo.MilestoneIndex, store.PhaseConfirmed), state: int8(chain.Included)}
	b.output(w, lo, lo.MessageID.String())
	if lo.MessageID != (chain.MessageID{}) {
		b.transactionRow(w, lo.OutputID.TransactionID(), lo.OutputID.Index(), "output", lo.MessageID.String(),
			chain.EncodeOutput(lo.Output))
	}
}

// dropPending deletes the pending output and tag rows of a message now referenced.
func (b *builder) dropPending(ts int64, m *chain.Message, id chain.MessageID, mark pendingMark) {
	if tx, ok := m.Payload.(*chain.Transaction); ok {
		b.deletePending(ts, tx)
	}
	if tag := tagText(messageTag(m)); tag != "" {
		b.add(cql.DeletePendingTag, ts, "tags/"+tag+"/"+itoa(cql.PendingRange), tag, int32(cql.PendingRange),
			mark.seenAt, int32(mark.est), id.String())
	}
}

// unreferencedWrites builds the writes of messages seen but not referenced yet.
func unreferencedWrites(msgs []chain.UnreferencedMessage, rc rowConfig) *builder {
	b := newBuilder(rc)
	for i := range msgs {
		um := &msgs[i]
		w := where{index: um.EstMilestoneIndex, rng: cql.PendingRange, at: um.SeenAt,
			ts: store.Timestamp(um.EstMilestoneIndex, store.PhasePending), state: unset, ttl: PendingTTL}
		b.unreferencedMessage(w, um)
	}
	return b
}
