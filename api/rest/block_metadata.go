package rest

import (
	"context"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// BlockMetadata is a block's TIP-25 metadata: how a milestone referenced it, or, while
// none has (a block seen unreferenced), its solidity and promotion hints only.
func (s *Reads) BlockMetadata(ctx context.Context, id string) (*tip25.BlockMetadataJSON, error) {
	rec, m, err := s.IndexedMessage(ctx, "block", id)
	if err != nil {
		return nil, err
	}
	blockID := chain.MessageIDOf(rec.Raw)
	if rec.MilestoneIndex == nil {
		return pendingBlockMetadata(blockID, m, &rec), nil
	}
	ref := tip25.Referenced{MilestoneIndex: uint32(*rec.MilestoneIndex), State: chain.NoTransaction.String()}
	if rec.InclusionState != nil {
		ref.State = chain.InclusionState(*rec.InclusionState).String()
	}
	if rec.WhiteFlagIndex != nil {
		ref.WhiteFlagIndex = uint32(*rec.WhiteFlagIndex)
	}
	if rec.ConflictReason != nil {
		ref.ConflictReason = uint8(*rec.ConflictReason) // stored as a signed byte: 255 reads -1
	}
	if mp, ok := m.Payload.(*chain.MilestonePayload); ok {
		ref.CarriedMilestone = mp.Index
	}
	return tip25.BlockMetadata(blockID, m.Parents, ref), nil
}

// pendingBlockMetadata is the metadata of a block no milestone referenced yet, as Hornet
// answers it: no milestone, state or white-flag index; solidity and the promotion
// hints (false when the indexer recorded none).
func pendingBlockMetadata(id chain.MessageID, m *chain.Message, rec *store.MessageRecord) *tip25.BlockMetadataJSON {
	j := tip25.BlockMetadata(id, m.Parents, tip25.Referenced{})
	j.WhiteFlagIndex, j.LedgerInclusionState = nil, ""
	j.IsSolid = rec.IsSolid != nil && *rec.IsSolid
	promote, reattach := rec.ShouldPromote != nil && *rec.ShouldPromote, rec.ShouldReattach != nil && *rec.ShouldReattach
	j.ShouldPromote, j.ShouldReattach = &promote, &reattach
	return j
}
