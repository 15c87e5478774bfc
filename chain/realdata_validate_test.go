package chain

import (
	"fmt"
	"testing"
)

// Validate and Verify accept the real milestones assembled from the data.

func realConfirmed(t *testing.T, index uint32) *ConfirmedMilestone {
	t.Helper()
	m := realMilestone(t, index)
	cm := &ConfirmedMilestone{Index: index, Timestamp: realTime(m.Timestamp), MilestoneID: m.MilestoneID,
		PreviousMilestoneID: m.PreviousMilestoneID, Milestone: decodeRealPayload(t, index)}
	for _, b := range m.Cone {
		cm.Messages = append(cm.Messages, ReferencedMessage{ID: b.ID, Raw: b.Raw, Message: decodeReal(t, b),
			WhiteFlagIndex: b.WhiteFlagIndex, InclusionState: realStates[b.InclusionState], ConflictReason: ConflictReason(b.ConflictReason)})
	}
	for _, o := range m.Created {
		cm.Created = append(cm.Created, realLedgerOutput(t, o.OutputID, o.BlockID, o.Raw, o.Booked, o.BookedTimestamp))
	}
	for _, s := range m.Consumed {
		cm.Consumed = append(cm.Consumed, LedgerSpent{
			LedgerOutput: realLedgerOutput(t, s.OutputID, s.BlockID, s.Raw, s.Booked, s.BookedTimestamp),
			SpentBy:      s.SpentBy, SpentMilestoneIndex: s.Spent, SpentTimestamp: realTime(s.SpentTimestamp)})
	}
	return cm
}

func realLedgerOutput(t *testing.T, id OutputID, block MessageID, raw []byte, booked, ts uint32) LedgerOutput {
	t.Helper()
	o, err := DecodeOutput(raw)
	if err != nil {
		t.Fatalf("output %s: %v", id, err)
	}
	return LedgerOutput{OutputID: id, MessageID: block, Output: o, MilestoneIndex: booked, Timestamp: realTime(ts)}
}

func TestRealValidate(t *testing.T) {
	for _, index := range realMilestones {
		t.Run(fmt.Sprint(index), func(t *testing.T) {
			cm := realConfirmed(t, index)
			if err := Validate(cm); err != nil {
				t.Fatal(err)
			}
			if err := Verify(cm, Shimmer()); err != nil {
				t.Fatal(err)
			}
			wantField(t, Verify(cm, IOTAMainnet()), "milestone.signatures[0]", "may not sign")
		})
	}
}

func TestRealValidateRawOnly(t *testing.T) {
	cm := realConfirmed(t, 17340)
	for i := range cm.Messages {
		cm.Messages[i].Message = nil
	}
	if err := Validate(cm); err != nil {
		t.Fatal(err)
	}
}

// Real data that has been tampered with is refused.
func TestRealValidateRefuses(t *testing.T) {
	cm := realConfirmed(t, 17339)
	cm.Messages[3], cm.Messages[4] = cm.Messages[4], cm.Messages[3]
	cm.Messages[3].WhiteFlagIndex, cm.Messages[4].WhiteFlagIndex = 3, 4
	wantField(t, Validate(cm), "messages[3].whiteFlagIndex", "is not at white-flag position 3")

	cm = realConfirmed(t, 17339)
	cm.Consumed[0].Output.Amount++
	spender := indexWhere(cm, func(rm *ReferencedMessage) bool {
		tx := rm.Message.TransactionOf()
		return tx != nil && tx.ID() == cm.Consumed[0].SpentBy
	})
	wantField(t, Validate(cm), fmt.Sprintf("messages[%d].payload.essence.inputsCommitment", spender), "does not commit")
}
