package api

import (
	"context"
	"errors"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// proofParam asks a block's metadata or an address-history page to carry proofs of
// inclusion (beyond inx-chronicle, which serves them on /api/poi/v1 only).
var proofParam = param{name: "proof", kind: boolKind,
	doc: "true: attach the referenced-block proof of inclusion (as /api/poi/v1/referenced-block/create answers it)"}

// wantsProof says whether the request asked for proofs.
func wantsProof(in *input) bool { p := in.flag("proof"); return p != nil && *p }

// metadataWithProof is a block's metadata with its proof of inclusion; a block no
// milestone referenced yet has none, and its metadata comes without.
type metadataWithProof struct {
	*tip25.BlockMetadataJSON
	Proof *proofJSON `json:"proof,omitempty"`
}

// blockMetadataAnswer is a block's TIP-25 metadata, with its proof when the request asks.
func (s *Server) blockMetadataAnswer(ctx context.Context, in *input) (any, error) {
	id := in.text("blockId")
	md, err := s.blockMetadata(ctx, id)
	if err != nil || !wantsProof(in) {
		return md, err
	}
	out := metadataWithProof{BlockMetadataJSON: md}
	if md.ReferencedByMilestoneIndex != 0 {
		out.Proof, err = s.newProver().prove(ctx, id, referencedTree)
	}
	return out, err
}

// attachHistoryProofs gives each address-history item the proof of its block: the
// block that included the transaction creating the output (a created item) or spending
// it (a spent item). An output whose creating block is not indexed (a genesis output, or
// one created before the keyspace's first milestone) has none.
func (s *Server) attachHistoryProofs(ctx context.Context, in *input, items []addressUpdateJSON) error {
	if !wantsProof(in) {
		return nil
	}
	p := s.newProver()
	for i := range items {
		block, err := s.updateBlock(ctx, &items[i])
		if err != nil || block == "" {
			return err
		}
		if items[i].Proof, err = p.prove(ctx, block, referencedTree); err != nil {
			return missingIsInternal(err)
		}
	}
	return nil
}

// updateBlock is the block of the transaction that made an address update ("" for the
// creation of an output whose creating block is not indexed).
func (s *Server) updateBlock(ctx context.Context, u *addressUpdateJSON) (string, error) {
	id, err := chain.ParseOutputID(u.OutputID)
	if err != nil {
		return "", fmt.Errorf("history item %q: %w", u.OutputID, err)
	}
	tx := id.TransactionID().String()
	if u.IsSpent {
		lo, err := s.ledgerOutput(ctx, u.OutputID)
		if err != nil {
			return "", missingIsInternal(err)
		}
		tx = lo.row.SpentBy
	}
	block, err := s.st.IncludedMessage(ctx, tx)
	if errors.Is(err, store.ErrNotFound) && !u.IsSpent {
		return "", nil
	}
	return block, missingIsInternal(err)
}
