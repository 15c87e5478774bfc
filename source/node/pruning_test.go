package node

import (
	"errors"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
	"github.com/stardust-indexer/stardust-indexer/source"
)

// A node pruned at 17338, as Hornet answers: 404 for every block it does not hold. The
// cone walk ends at those blocks, so both real milestones come back whole and verified;
// the oldest milestone is the pruning index + 1. Pruned at 17339, the node answers 404 for
// 17339 itself and for the blocks 17339 referenced, which 17340's walk meets.
func TestPrunedNode(t *testing.T) {
	n, set, s, ctx, net := sourceOnFakeNode(t)
	for _, pruning := range []uint32{17338, 17339} {
		if err := n.SetPruningIndex(pruning); err != nil {
			t.Fatal(err)
		}
		if oldest, err := s.Oldest(ctx); err != nil || oldest != pruning+1 {
			t.Fatalf("pruned at %d: oldest %d, %v", pruning, oldest, err)
		}
		for index := pruning + 1; index <= 17340; index++ {
			vm, err := s.Milestone(ctx, index)
			if err != nil {
				t.Fatalf("pruned at %d: milestone %d: %v", pruning, index, err)
			}
			cm := vm.Confirmed()
			if _, err := chain.Verify(cm, net); err != nil {
				t.Fatalf("pruned at %d: milestone %d: %v", pruning, index, err)
			}
			checkAgainstData(t, cm, set.Milestones[index])
		}
	}
	if _, err := s.Milestone(ctx, 17339); !errors.Is(err, source.ErrNotHeld) || !errors.Is(err, errNotFound) ||
		!errors.As(err, new(*source.Refusal)) {
		t.Fatalf("milestone 17339 on a node pruned at 17339: %v; want a refusal: not held, 404", err)
	}
}

// A node that answers 404 for a block inside the cone (one without a transaction, so the
// ledger changes still agree) cannot make a smaller cone pass: the walk ends at the block,
// and what it gathered is refused, by the white-flag indexes the node gave the blocks
// after it or else by the milestone's inclusion Merkle root.
func TestBlockMissingFromTheConeIsRefused(t *testing.T) {
	n, set, s, ctx, _ := sourceOnFakeNode(t)
	cone := set.Milestones[17340].Cone
	hidden := slices.IndexFunc(cone, func(b realdata.Block) bool { return b.InclusionState == "noTransaction" })
	if hidden < 0 {
		t.Fatal("no block without a transaction in 17340's cone")
	}
	n.HideBlock(cone[hidden].ID, true)
	_, err := s.Milestone(ctx, 17340)
	var invalid *chain.ValidationError
	if !errors.As(err, new(*source.Refusal)) || errors.Is(err, source.ErrUnverified) &&
		(!errors.As(err, &invalid) || invalid.Field != "milestone.inclusionMerkleRoot") {
		t.Fatalf("cone without block %d of %d: %v; want a refusal (the inclusion Merkle root's if it reaches verification)",
			hidden, len(cone), err)
	}
}
