package core

import (
	"context"
	"errors"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
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
	return s.BlockMetadata(ctx, id)
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

// metadataWithProof is a block's metadata with its proof of inclusion; a block no
// milestone referenced yet has none, and its metadata comes without.
type metadataWithProof struct {
	*tip25.BlockMetadataJSON
	Proof *rest.ProofJSON `json:"proof,omitempty"`
}

// blockMetadataAnswer is a block's TIP-25 metadata, with its proof when the request asks.
func (s *API) blockMetadataAnswer(ctx context.Context, id string, proof bool) (any, error) {
	md, err := s.BlockMetadata(ctx, id)
	if err != nil || !proof {
		return md, err
	}
	out := metadataWithProof{BlockMetadataJSON: md}
	if md.ReferencedByMilestoneIndex != 0 {
		out.Proof, err = s.NewProver().Prove(ctx, id, rest.ReferencedTree)
	}
	return out, err
}
