package core

import (
	"context"
	"errors"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

func (s *API) coreBlock(ctx context.Context, in *rest.Input, p *rest.BlockIDParams) (any, error) {
	return s.blockAnswer(ctx, p.BlockID, in.Accept)
}

// blockMetadataParams: a block's metadata may carry its proof of inclusion.
type blockMetadataParams struct {
	rest.BlockIDParams
	rest.ProofParams
}

func (s *API) coreBlockMetadata(ctx context.Context, _ *rest.Input, p *blockMetadataParams) (any, error) {
	return s.blockMetadataAnswer(ctx, p.BlockID, p.Wanted())
}

func (s *API) coreIncludedBlock(ctx context.Context, in *rest.Input, p *rest.TransactionIDParams) (any, error) {
	id, err := s.includedBlock(ctx, p.TransactionID)
	if err != nil {
		return nil, err
	}
	return s.blockAnswer(ctx, id, in.Accept)
}

func (s *API) coreIncludedBlockMetadata(ctx context.Context, _ *rest.Input, p *rest.TransactionIDParams) (any, error) {
	id, err := s.includedBlock(ctx, p.TransactionID)
	if err != nil {
		return nil, err
	}
	return s.blockMetadata(ctx, id)
}

// includedBlock is the block whose inclusion applied a transaction.
func (s *API) includedBlock(ctx context.Context, txID string) (string, error) {
	id, err := s.st.IncludedMessage(ctx, txID)
	if errors.Is(err, store.ErrNotFound) {
		return "", rest.NotFound("transaction %s is not included in any indexed block", txID)
	}
	return id, err
}

// blockAnswer is a block in TIP-25 JSON, or its bytes when the request asks for them.
func (s *API) blockAnswer(ctx context.Context, id, accept string) (any, error) {
	raw, err := s.IndexedMessageRaw(ctx, "block", id)
	if err != nil {
		return nil, err
	}
	if rest.WantsBytes(accept) {
		return rest.MediaBytes{Media: rest.SerializerMedia, Data: raw}, nil
	}
	m, err := rest.DecodeStoredMessage("block", id, raw)
	if err != nil {
		return nil, err
	}
	return tip25.Block(m)
}

// blockMetadata is a block's TIP-25 metadata: how a milestone referenced it, or, while
// none has (a block seen unreferenced), its solidity and promotion hints only.
func (s *API) blockMetadata(ctx context.Context, id string) (*tip25.BlockMetadataJSON, error) {
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

// metadataWithProof is a block's metadata with its proof of inclusion; a block no
// milestone referenced yet has none, and its metadata comes without.
type metadataWithProof struct {
	*tip25.BlockMetadataJSON
	Proof *rest.ProofJSON `json:"proof,omitempty"`
}

// blockMetadataAnswer is a block's TIP-25 metadata, with its proof when the request asks.
func (s *API) blockMetadataAnswer(ctx context.Context, id string, proof bool) (any, error) {
	md, err := s.blockMetadata(ctx, id)
	if err != nil || !proof {
		return md, err
	}
	out := metadataWithProof{BlockMetadataJSON: md}
	if md.ReferencedByMilestoneIndex != 0 {
		out.Proof, err = s.NewProver().Prove(ctx, id, rest.ReferencedTree)
	}
	return out, err
}
