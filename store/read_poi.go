package store

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Reads of the proofs of inclusion: the keys milestones verify against and the blocks
// of a milestone's applied Merkle tree.

// MilestoneKeys are the milestone keys the keyspace recorded when its first milestone
// was indexed (every indexed milestone verified against them); ErrNotFound while none
// are recorded.
func (st *Store) MilestoneKeys(ctx context.Context) (chain.MilestoneKeys, error) {
	rec, ok, err := metaJSON[keysRecord](ctx, st, keysConcern)
	if err != nil {
		return chain.MilestoneKeys{}, err
	}
	if !ok {
		return chain.MilestoneKeys{}, ErrNotFound
	}
	return rec.keys()
}

// AppliedMessages lists the IDs of the messages whose transactions milestone index
// included (the leaves of its applied Merkle tree), in white-flag order.
func (st *Store) AppliedMessages(ctx context.Context, index uint32) ([]string, error) {
	ids, err := st.MilestoneMessages(ctx, index)
	if err != nil {
		return nil, err
	}
	included := make([]bool, len(ids))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(archiveReads)
	for i, id := range ids {
		g.Go(func() error {
			m, err := st.MessageMetadata(gctx, id)
			if err != nil {
				return fmt.Errorf("message %s of milestone %d: %w", id, index, err)
			}
			included[i] = m.InclusionState != nil && chain.InclusionState(*m.InclusionState) == chain.Included
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	var out []string
	for i, id := range ids {
		if included[i] {
			out = append(out, id)
		}
	}
	return out, nil
}
