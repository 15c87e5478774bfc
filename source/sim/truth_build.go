package sim

import (
	"context"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// addTruth folds one milestone into t; callers hold s.mu.
func (s *Sim) addTruth(t *Truth, index uint32) error {
	rec, err := s.record(context.Background(), index)
	if err != nil {
		return err
	}
	mt := MilestoneTruth{Index: rec.index, Timestamp: rec.ts, MilestoneID: rec.id,
		PreviousMilestoneID: rec.prevID, Payload: rec.payload, MessageID: rec.msgID}
	for i, m := range rec.msgs {
		decoded, err := chain.DecodeMessage(m.raw)
		if err != nil {
			return err
		}
		t.addMessage(&MessageTruth{ID: m.id, Raw: m.raw, Message: decoded, Milestone: rec.index,
			Timestamp: rec.ts, WhiteFlagIndex: uint32(i), InclusionState: m.state, ConflictReason: m.reason})
		mt.Messages = append(mt.Messages, m.id)
	}
	t.Milestones = append(t.Milestones, mt)
	for _, id := range rec.created {
		if err := t.addOutput(s.gen, id); err != nil {
			return err
		}
	}
	return nil
}

func (t *Truth) addMessage(mt *MessageTruth) {
	t.Messages[mt.ID] = mt
	for _, p := range mt.Message.Parents {
		t.Children[p] = append(t.Children[p], mt.ID)
	}
	if tag := mt.Message.Tag(); len(tag) > 0 {
		t.Tags[string(tag)] = append(t.Tags[string(tag)], mt.ID)
	}
	tx := mt.Message.TransactionOf()
	if tx == nil {
		return
	}
	id := tx.ID()
	tt := t.Transactions[id]
	if tt == nil {
		tt = &TransactionTruth{ID: id, Transaction: tx}
		t.Transactions[id] = tt
	}
	tt.Attachments = append(tt.Attachments, mt.ID)
	if mt.InclusionState == chain.Included {
		tt.Included, tt.Milestone = mt.ID, mt.Milestone
	}
}

// addOutput records a created output with its spend, if that happened by
// t.UpTo.
func (t *Truth) addOutput(g *generator, id chain.OutputID) error {
	lo, err := g.ledgerOutput(id)
	if err != nil {
		return err
	}
	ot := &OutputTruth{LedgerOutput: lo}
	if rec := g.outputs[id]; rec.spentMs != 0 && rec.spentMs <= t.UpTo {
		ot.Spent, ot.SpentBy, ot.SpentMilestone, ot.SpentTimestamp = true, rec.spentBy, rec.spentMs, rec.spentTs
	}
	t.Outputs[id] = ot
	return nil
}
