package node

import (
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// inclusionStates maps TIP-25's ledgerInclusionState.
var inclusionStates = map[string]chain.InclusionState{
	tip25.LedgerNoTransaction: chain.NoTransaction,
	tip25.LedgerIncluded:      chain.Included,
	tip25.LedgerConflicting:   chain.Conflicting,
}

// whiteFlag orders the cone as TIP-2 does and attaches the node's verdicts; a node whose
// white-flag indexes disagree with the order the parents give is refused.
func whiteFlag(parents []chain.MessageID, cone map[chain.MessageID]*coneBlock) ([]chain.ReferencedMessage, error) {
	order := chain.WhiteFlagOrder(parents, func(id chain.MessageID) ([]chain.MessageID, bool) {
		b, ok := cone[id]
		if !ok {
			return nil, false
		}
		return b.msg.Parents, true
	})
	msgs := make([]chain.ReferencedMessage, len(order))
	for i, id := range order {
		b := cone[id]
		if wf := b.meta.WhiteFlagIndex; wf != nil && *wf != uint32(i) {
			return nil, source.Refuse(fmt.Errorf("block %s: the node gives white-flag index %d, the parents give %d", id, *wf, i))
		}
		state, ok := inclusionStates[b.meta.LedgerInclusionState]
		if !ok {
			return nil, source.Refuse(fmt.Errorf("block %s: unknown ledgerInclusionState %q", id, b.meta.LedgerInclusionState))
		}
		msgs[i] = chain.ReferencedMessage{ID: id, Raw: b.raw, Message: b.msg, WhiteFlagIndex: uint32(i),
			InclusionState: state, ConflictReason: conflictReason(b.meta.ConflictReason)}
	}
	return msgs, nil
}

// conflictReason is the metadata's conflict reason; a node omits it for none.
func conflictReason(r *uint8) chain.ConflictReason {
	if r == nil {
		return 0
	}
	return chain.ConflictReason(*r)
}
