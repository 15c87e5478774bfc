package nodetest

import (
	"context"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

// FromSim builds a Set of the simulated chain's milestones first..last as a node that
// confirmed them holds them: each cone's blocks in white-flag order with their verdicts,
// the payloads and the ledger changes, under the simulated network's parameters and keys.
// The node source must be given those keys (sim.Network().Keys): no node names them.
// Every milestone is generated and kept, both here and in src, so memory grows with
// last-first.
func FromSim(ctx context.Context, src *sim.Sim, first, last uint32) (*realdata.Set, error) {
	set := simSet()
	for i := first; i <= last; i++ {
		cm, err := src.Confirmed(ctx, i)
		if err != nil {
			return nil, fmt.Errorf("nodetest: simulated milestone %d: %w", i, err)
		}
		set.Milestones[i] = simMilestone(cm)
	}
	if len(set.Milestones) == 0 {
		return nil, fmt.Errorf("nodetest: no simulated milestone in %d..%d", first, last)
	}
	return set, nil
}

// simSet is an empty Set carrying the simulated network's parameters, base token and keys.
func simSet() *realdata.Set {
	n := sim.Network()
	return &realdata.Set{Milestones: map[uint32]*realdata.Milestone{}, KeyThreshold: n.Keys.Threshold,
		Protocol: n.Params, BaseToken: n.BaseToken, KeyRanges: n.Keys.Ranges}
}

// simMilestone converts one confirmed milestone.
func simMilestone(cm *chain.ConfirmedMilestone) *realdata.Milestone {
	mp := cm.Milestone
	m := &realdata.Milestone{Index: cm.Index, Timestamp: mp.Timestamp, MilestoneID: cm.MilestoneID,
		ProtocolVersion: mp.ProtocolVersion, PreviousMilestoneID: mp.PreviousMilestoneID, Parents: ids32(mp.Parents),
		InclusionMerkleRoot: mp.InclusionMerkleRoot, AppliedMerkleRoot: mp.AppliedMerkleRoot, Metadata: mp.Metadata,
		Payload: mp.Encode(), Essence: mp.Essence()}
	for _, sig := range mp.Signatures {
		m.Signatures = append(m.Signatures, realdata.Signature(sig))
	}
	for _, rm := range cm.Messages {
		m.Cone = append(m.Cone, simBlock(cm.Index, rm))
	}
	for _, lo := range cm.Created {
		m.Created = append(m.Created, simOutput(lo))
	}
	for _, ls := range cm.Consumed {
		m.Consumed = append(m.Consumed, realdata.Spent{Output: simOutput(ls.LedgerOutput), SpentBy: ls.SpentBy,
			Spent: ls.SpentMilestoneIndex, SpentTimestamp: uint32(ls.SpentTimestamp.Unix())})
	}
	return m
}

// simBlock is a referenced message as the node's block metadata gives it.
func simBlock(referencedBy uint32, rm chain.ReferencedMessage) realdata.Block {
	b := realdata.Block{ID: rm.ID, Raw: rm.Raw, ReferencedBy: referencedBy, WhiteFlagIndex: rm.WhiteFlagIndex,
		InclusionState: rm.InclusionState.String(), ConflictReason: uint8(rm.ConflictReason)}
	if rm.Message != nil {
		b.Parents = ids32(rm.Message.Parents)
		if carried := rm.Message.MilestoneOf(); carried != nil {
			b.MilestoneIndex = carried.Index
		}
	}
	return b
}

func simOutput(lo chain.LedgerOutput) realdata.Output {
	return realdata.Output{OutputID: lo.OutputID, BlockID: lo.MessageID, Booked: lo.MilestoneIndex,
		BookedTimestamp: uint32(lo.Timestamp.Unix()), Raw: chain.EncodeOutput(lo.Output)}
}

func ids32(ids []chain.MessageID) [][32]byte {
	out := make([][32]byte, len(ids))
	for i := range ids {
		out[i] = ids[i]
	}
	return out
}
