package chain_test

import (
	"fmt"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Validate and Verify accept the real milestones assembled from the data.

func realConfirmed(t *testing.T, index uint32) *chain.ConfirmedMilestone {
	t.Helper()
	m := realMilestone(t, index)
	cm := &chain.ConfirmedMilestone{Index: index, Timestamp: realTime(m.Timestamp), MilestoneID: m.MilestoneID,
		PreviousMilestoneID: m.PreviousMilestoneID, Milestone: decodeRealPayload(t, index)}
	for _, b := range m.Cone {
		cm.Messages = append(cm.Messages, chain.ReferencedMessage{ID: b.ID, Raw: b.Raw, Message: decodeReal(t, b),
			WhiteFlagIndex: b.WhiteFlagIndex, InclusionState: realStates[b.InclusionState], ConflictReason: chain.ConflictReason(b.ConflictReason)})
	}
	for _, o := range m.Created {
		cm.Created = append(cm.Created, realLedgerOutput(t, o.OutputID, o.BlockID, o.Raw, o.Booked, o.BookedTimestamp))
	}
	for _, s := range m.Consumed {
		cm.Consumed = append(cm.Consumed, chain.LedgerSpent{
			LedgerOutput: realLedgerOutput(t, s.OutputID, s.BlockID, s.Raw, s.Booked, s.BookedTimestamp),
			SpentBy:      s.SpentBy, SpentMilestoneIndex: s.Spent, SpentTimestamp: realTime(s.SpentTimestamp)})
	}
	return cm
}

func realLedgerOutput(t *testing.T, id chain.OutputID, block chain.MessageID, raw []byte, booked, ts uint32) chain.LedgerOutput {
	t.Helper()
	o, err := chain.DecodeOutput(raw)
	if err != nil {
		t.Fatalf("output %s: %v", id, err)
	}
	return chain.LedgerOutput{OutputID: id, MessageID: block, Output: o, MilestoneIndex: booked, Timestamp: realTime(ts)}
}

func TestRealValidate(t *testing.T) {
	forEachRealMilestone(t, func(t *testing.T, index uint32) {
		cm := realConfirmed(t, index)
		if err := chain.Validate(cm); err != nil {
			t.Fatal(err)
		}
		if _, err := chain.Verify(cm, chain.Shimmer()); err != nil {
			t.Fatal(err)
		}
		wantField(t, verifyErr(cm, chain.IOTAMainnet()), "milestone.signatures[0]", "may not sign")
	})
}

func TestRealValidateRawOnly(t *testing.T) {
	cm := realConfirmed(t, 17340)
	for i := range cm.Messages {
		cm.Messages[i].Message = nil
	}
	if err := chain.Validate(cm); err != nil {
		t.Fatal(err)
	}
}

// Real data that has been tampered with is refused.
func TestRealValidateRefuses(t *testing.T) {
	cm := realConfirmed(t, 17339)
	cm.Messages[3], cm.Messages[4] = cm.Messages[4], cm.Messages[3]
	cm.Messages[3].WhiteFlagIndex, cm.Messages[4].WhiteFlagIndex = 3, 4
	wantField(t, chain.Validate(cm), "messages[3].whiteFlagIndex", "is not at white-flag position 3")

	cm = realConfirmed(t, 17339)
	cm.Consumed[0].Output.Amount++
	spender := indexWhere(cm, func(rm *chain.ReferencedMessage) bool {
		tx := rm.Message.TransactionOf()
		return tx != nil && tx.ID() == cm.Consumed[0].SpentBy
	})
	wantField(t, chain.Validate(cm), fmt.Sprintf("messages[%d].payload.essence.inputsCommitment", spender), "does not commit")
}
