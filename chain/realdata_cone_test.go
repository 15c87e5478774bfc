package chain_test

import (
	"encoding/hex"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// The white-flag order and both Merkle roots, recomputed from the real cones.

func TestRealWhiteFlagOrder(t *testing.T) {
	forEachRealMilestone(t, func(t *testing.T, index uint32) {
		m := realMilestone(t, index)
		parents := map[chain.MessageID][]chain.MessageID{}
		var want []chain.MessageID
		for i, b := range m.Cone {
			if b.WhiteFlagIndex != uint32(i) {
				t.Fatalf("cone[%d] has white-flag index %d", i, b.WhiteFlagIndex)
			}
			parents[b.ID] = decodeReal(t, b).Parents
			want = append(want, b.ID)
		}
		got := chain.WhiteFlagOrder(toMessageIDs(m.Parents), func(id chain.MessageID) ([]chain.MessageID, bool) {
			ps, ok := parents[id]
			return ps, ok
		})
		if !slices.Equal(got, want) {
			t.Fatalf("white-flag order differs from the recorded white_flag_index (%d vs %d blocks)", len(got), len(want))
		}
	})
}

func TestRealMerkleRoots(t *testing.T) {
	for _, index := range realMilestones {
		m := realMilestone(t, index)
		all, applied := realTreeLeaves(m)
		if chain.MerkleRoot(all) != m.InclusionMerkleRoot {
			t.Errorf("%d: inclusion root of %d blocks differs", index, len(all))
		}
		if chain.MerkleRoot(applied) != m.AppliedMerkleRoot {
			t.Errorf("%d: applied root of %d blocks differs", index, len(applied))
		}
	}
	if r := realMilestone(t, 17339).InclusionMerkleRoot; "0x"+hex.EncodeToString(r[:2]) != "0x5aa9" {
		t.Errorf("17339 inclusion root %x", r)
	}
}

// The block carrying milestone M sits in M+1's cone, not in M's.
func TestRealCarriedMilestones(t *testing.T) {
	m39, m40 := realMilestone(t, 17339), realMilestone(t, 17340)
	carried := decodeReal(t, m40.Cone[0]).MilestoneOf()
	if carried == nil || carried.Index != 17339 || carried.ID() != chain.MilestoneID(m39.MilestoneID) {
		t.Fatalf("17340's cone[0] does not carry 17339: %+v", carried)
	}
	if m40.PreviousMilestoneID != m39.MilestoneID {
		t.Fatal("17340 does not name 17339 as its previous milestone")
	}
	if carried := decodeReal(t, m39.Cone[14]).MilestoneOf(); carried == nil || carried.Index != 17338 ||
		carried.ID() != chain.MilestoneID(m39.PreviousMilestoneID) {
		t.Fatal("17339's cone[14] does not carry 17338")
	}
}
