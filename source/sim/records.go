package sim

import (
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// msgRec is a referenced message as cached: its bytes, parents and verdict.
type msgRec struct {
	id        chain.MessageID
	raw       []byte
	parents   []chain.MessageID
	state     chain.InclusionState
	reason    chain.ConflictReason
	milestone bool // it carries a milestone payload
}

// msRecord is one generated milestone, kept compact (encoded bytes) so long
// chains fit in memory; it is immutable once generated.
type msRecord struct {
	index    uint32
	ts       time.Time
	id       chain.MilestoneID
	prevID   chain.MilestoneID
	payload  []byte          // the signed milestone payload as serialized
	msgID    chain.MessageID // the message carrying it (in the next milestone's cone)
	msgs     []msgRec        // the cone, in white-flag order
	created  []chain.OutputID
	consumed []chain.OutputID
}

// confirmed expands a record into the chain's view of the milestone. A message that
// does not decode (a fault) is handed over raw, for validation to refuse.
func (g *generator) confirmed(rec *msRecord) (*chain.ConfirmedMilestone, error) {
	mp, err := chain.DecodeMilestonePayload(rec.payload)
	if err != nil {
		return nil, err
	}
	cm := &chain.ConfirmedMilestone{
		Index: rec.index, Timestamp: rec.ts, MilestoneID: rec.id,
		PreviousMilestoneID: rec.prevID, Milestone: mp,
	}
	for i, m := range rec.msgs {
		decoded, _ := chain.DecodeMessage(m.raw)
		cm.Messages = append(cm.Messages, chain.ReferencedMessage{
			ID: m.id, Raw: m.raw, Message: decoded, WhiteFlagIndex: uint32(i),
			InclusionState: m.state, ConflictReason: m.reason,
		})
	}
	for _, id := range rec.created {
		lo, err := g.ledgerOutput(id)
		if err != nil {
			return nil, err
		}
		cm.Created = append(cm.Created, lo)
	}
	for _, id := range rec.consumed {
		lo, err := g.ledgerOutput(id)
		if err != nil {
			return nil, err
		}
		o := g.outputs[id]
		cm.Consumed = append(cm.Consumed, chain.LedgerSpent{
			LedgerOutput: lo, SpentBy: o.spentBy, SpentMilestoneIndex: o.spentMs, SpentTimestamp: o.spentTs,
		})
	}
	return cm, nil
}

func (g *generator) ledgerOutput(id chain.OutputID) (chain.LedgerOutput, error) {
	o := g.outputs[id]
	out, err := chain.DecodeOutput(o.raw)
	return chain.LedgerOutput{
		OutputID: id, MessageID: o.msgID, Output: out, MilestoneIndex: o.ms, Timestamp: o.ts,
	}, err
}
