package chain_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Validate: the messages are exactly the milestone's cone in white-flag order, proved
// by both Merkle roots (validate_cone.go).

func TestValidateConeOrder(t *testing.T) {
	runCMCases(t, []cmCase{
		{"swapped", "messages[0].whiteFlagIndex", "is not at white-flag position 0", func(cm *chain.ConfirmedMilestone) {
			cm.Messages[0], cm.Messages[1] = cm.Messages[1], cm.Messages[0]
			cm.Messages[0].WhiteFlagIndex, cm.Messages[1].WhiteFlagIndex = 0, 1
		}},
		{"not reachable", "messages[5].id", "is not reachable from the milestone's parents", func(cm *chain.ConfirmedMilestone) {
			m := newMessage(&chain.TaggedData{Tag: []byte("stranger")}, chain.MessageID{0x07})
			cm.Messages = append(cm.Messages, chain.ReferencedMessage{ID: m.ID(), Raw: m.Encode(), Message: m, WhiteFlagIndex: 5})
		}},
	})
}

// A message left out of the cone (here a tip, dropped from the milestone's parents as
// well) leaves a valid order but changes the inclusion root.
func TestValidateConeMessageLeftOut(t *testing.T) {
	cm := validMilestone()
	tip := cm.Messages[tipAt(cm)].ID
	for i := range cm.Messages {
		if slices.Contains(cm.Messages[i].Message.Parents, tip) {
			t.Fatal("fixture: the tagged tip has a child")
		}
	}
	cm.Messages = slices.DeleteFunc(cm.Messages, func(rm chain.ReferencedMessage) bool { return rm.ID == tip })
	cm.Milestone.Parents = slices.DeleteFunc(cm.Milestone.Parents, func(id chain.MessageID) bool { return id == tip })
	reorder(cm)
	cm.MilestoneID = cm.Milestone.ID()
	wantField(t, chain.Validate(cm), "milestone.inclusionMerkleRoot", "but the 4 messages give")
}

func TestValidateConeRoots(t *testing.T) {
	rehead := func(cm *chain.ConfirmedMilestone) { cm.MilestoneID = cm.Milestone.ID() }
	cm := validMilestone()
	tx, conflict := includedAt(cm), conflictingAt(cm)
	runCMCases(t, []cmCase{
		{"inclusion root", "milestone.inclusionMerkleRoot", "but the 5 messages give", func(cm *chain.ConfirmedMilestone) {
			cm.Milestone.InclusionMerkleRoot[0] ^= 1
			rehead(cm)
		}},
		{"applied root", "milestone.appliedMerkleRoot", "but the 1 included transactions give", func(cm *chain.ConfirmedMilestone) {
			cm.Milestone.AppliedMerkleRoot[31] ^= 1
			rehead(cm)
		}},
		{"conflicting said included", "milestone.appliedMerkleRoot", "the 2 included transactions", func(cm *chain.ConfirmedMilestone) {
			cm.Messages[conflict].InclusionState, cm.Messages[conflict].ConflictReason = chain.Included, chain.ConflictNone
		}},
		{"included said conflicting", "milestone.appliedMerkleRoot", "the 0 included transactions", func(cm *chain.ConfirmedMilestone) {
			cm.Messages[tx].InclusionState, cm.Messages[tx].ConflictReason = chain.Conflicting, chain.ConflictInputNotFound
		}},
		{"applied root over transaction IDs", "milestone.appliedMerkleRoot", "included transactions", func(cm *chain.ConfirmedMilestone) {
			cm.Milestone.AppliedMerkleRoot = chain.MerkleRoot([]chain.MessageID{chain.MessageID(cm.Messages[tx].Message.TransactionOf().ID())})
			rehead(cm)
		}},
	})
}

func TestValidateCarriedMilestone(t *testing.T) {
	cm := validMilestone()
	at := milestoneAt(cm)
	if got := cm.CarriedMilestones(); len(got) != 1 || got[vIndex-1] != cm.Messages[at].ID {
		t.Fatalf("CarriedMilestones: %v", got)
	}
	cm.Milestone.PreviousMilestoneID[0] ^= 1
	cm.PreviousMilestoneID, cm.MilestoneID = cm.Milestone.PreviousMilestoneID, cm.Milestone.ID()
	wantField(t, chain.Validate(cm), fmt.Sprintf("messages[%d].payload", at), "carries milestone 4 with ID")

	cm = validMilestone()
	cm.Messages[at].Message = nil
	if got := cm.CarriedMilestones(); len(got) != 0 {
		t.Fatalf("CarriedMilestones without decoded messages: %v", got)
	}
}
