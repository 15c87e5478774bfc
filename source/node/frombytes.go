package node

import (
	"context"
	"fmt"
	"strings"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// fromBytes walks milestone index's cone from the blocks' bytes alone, one request a
// block instead of two, and tells false when the cone must be walked with the metadata
// instead. TIP-25 serves a block's bytes and its metadata apart, and the metadata is
// needed for three things only, each of which the milestone itself vouches for:
//   - Where the cone ends: at blocks an earlier milestone referenced. Once the walks of
//     every milestone before index have ended (settle), the blocks of their cones and
//     those they ended at are marked reached, so the cone is what lies between index's
//     parents and those marks. The signed inclusion Merkle root covers the cone in
//     white-flag order: a cone that reached past an unmarked block differs from it.
//   - Each block's white-flag index: the order of the walk (TIP-2).
//   - Each transaction's verdict: included when the milestone's utxo-changes list its
//     outputs, conflicting otherwise (the reason is read from the block's metadata,
//     one request a conflict). The signed applied Merkle root covers the included ones.
//
// Once the cone is known, walked marks it so in the book, before the verdicts are read.
// The walk fetches at most the book's budget of blocks: right after the Source starts,
// a cone may reach blocks of milestones no walk marked, and the walk would follow them
// into the past. When the roots differ (a walk below index failed, or the cone reached
// blocks no walk marked) or the budget stopped the walk, the metadata decides. The blocks
// fetched stay in the block cache for that walk, which drops those it asks for; the
// others (past the cone) leave with the cache's oldest entries.
func (s *member) fromBytes(ctx context.Context, index uint32, mp *chain.MilestonePayload, walked func(int),
	utxo func() (tip25.UTXOChangesJSON, error)) (msgs []chain.ReferencedMessage, ok bool, err error) {
	w, err := s.walk(ctx, index, mp.Parents, s.book.budget())
	defer func() {
		if ok || err != nil {
			s.blocks.drop(w.asked)
		}
	}()
	if err != nil {
		return nil, false, err
	}
	if err := s.book.settle(ctx, index); err != nil {
		return nil, false, err
	}
	order, whole := s.bytesOrder(w, mp.Parents)
	if !whole || chain.MerkleRoot(order) != mp.InclusionMerkleRoot {
		return nil, false, nil
	}
	walked(len(order))
	changes, err := utxo()
	if err != nil {
		return nil, false, err
	}
	msgs, err = s.verdicts(ctx, index, order, w.cone, createdSet(changes))
	if err != nil {
		return nil, false, err
	}
	return msgs, chain.AppliedMerkleRoot(msgs) == mp.AppliedMerkleRoot, nil
}

// bytesOrder orders the walk's cone (TIP-2), ending at blocks an earlier walk reached
// and at blocks the node does not hold. whole is false when the order needs a block the
// walk did not fetch (its budget stopped it).
func (s *member) bytesOrder(w *coneWalk, parents []chain.MessageID) (order []chain.MessageID, whole bool) {
	whole = true
	order = chain.WhiteFlagOrder(parents, func(id chain.MessageID) ([]chain.MessageID, bool) {
		if s.reached.earlier(id, w.index) {
			return nil, false
		}
		b, ok := w.cone[id]
		if !ok {
			whole = whole && w.missing[id]
			return nil, false
		}
		return b.msg.Parents, true
	})
	return order, whole
}

// verdicts builds the referenced blocks in white-flag order with their inclusion
// states: a transaction is included when the milestone created its outputs.
func (s *member) verdicts(ctx context.Context, index uint32, order []chain.MessageID,
	cone map[chain.MessageID]*coneBlock, created map[string]bool) ([]chain.ReferencedMessage, error) {
	msgs := make([]chain.ReferencedMessage, len(order))
	for i, id := range order {
		b := cone[id]
		msgs[i] = chain.ReferencedMessage{ID: id, Raw: b.raw, Message: b.msg, WhiteFlagIndex: uint32(i),
			InclusionState: chain.NoTransaction}
		tx := b.msg.TransactionOf()
		switch {
		case tx == nil:
		case created[chain.NewOutputID(tx.ID(), 0).String()]:
			msgs[i].InclusionState = chain.Included
		default:
			reason, err := s.conflictReason(ctx, index, id)
			if err != nil {
				return nil, err
			}
			msgs[i].InclusionState, msgs[i].ConflictReason = chain.Conflicting, reason
		}
	}
	return msgs, nil
}

// conflictReason reads why milestone index did not apply a block's transaction. The node
// must say the block is conflicting and referenced by index: its utxo-changes do not list
// the transaction's outputs.
func (s *member) conflictReason(ctx context.Context, index uint32, id chain.MessageID) (chain.ConflictReason, error) {
	route := "/blocks/" + id.String() + "/metadata"
	var meta tip25.BlockMetadataJSON
	if err := s.c.getJSON(ctx, route, &meta); err != nil {
		return 0, err
	}
	if meta.ReferencedByMilestoneIndex != index || meta.LedgerInclusionState != tip25.LedgerConflicting {
		return 0, source.Refuse(fmt.Errorf("GET %s%s: referenced by milestone %d as %q, but milestone %d's "+
			"utxo-changes leave out the transaction's outputs", apiBase, route, meta.ReferencedByMilestoneIndex,
			meta.LedgerInclusionState, index))
	}
	return conflictReason(meta.ConflictReason), nil
}

// createdSet is the utxo-changes' created outputs, in lower-case hex.
func createdSet(changes tip25.UTXOChangesJSON) map[string]bool {
	out := make(map[string]bool, len(changes.CreatedOutputs))
	for _, id := range changes.CreatedOutputs {
		out[strings.ToLower(id)] = true
	}
	return out
}
