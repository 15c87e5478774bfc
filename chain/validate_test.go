package chain

import (
	"errors"
	"testing"
	"time"
)

const fixtureIndex = 5

var fixtureTime = time.Date(2022, 10, 1, 0, 0, 50, 0, time.UTC)

// fixtureMilestone builds a small valid milestone: a tagged-data message, a
// transaction spending one earlier output into two, and the milestone message.
func fixtureMilestone() *ConfirmedMilestone {
	spentID := NewOutputID(TransactionID{9}, 0)
	tx := &Transaction{
		NetworkID: 1,
		Inputs:    []Input{{TransactionID: spentID.TransactionID(), Index: 0}},
		Outputs: []Output{
			{Kind: OutputBasic, Amount: 600, Address: ptr(fixtureAddr(2))},
			{Kind: OutputBasic, Amount: 400, Address: ptr(fixtureAddr(1))},
		},
		Unlocks: []Unlock{{Kind: UnlockSignature}},
	}
	msgs := []*Message{
		{ProtocolVersion: ProtocolVersion, Parents: []MessageID{{1}}, Payload: &TaggedData{Tag: []byte("t")}},
		{ProtocolVersion: ProtocolVersion, Parents: []MessageID{{1}}, Payload: tx},
	}
	ms := &MilestonePayload{Index: fixtureIndex, Timestamp: uint32(fixtureTime.Unix()),
		PreviousMilestoneID: MilestoneID{4}, Parents: []MessageID{msgs[0].ID()}}
	msgs = append(msgs, &Message{ProtocolVersion: ProtocolVersion, Parents: ms.Parents, Payload: ms})
	cm := &ConfirmedMilestone{Index: fixtureIndex, Timestamp: fixtureTime, MilestoneID: ms.ID(),
		PreviousMilestoneID: ms.PreviousMilestoneID, MessageID: msgs[2].ID()}
	for i, m := range msgs {
		rm := ReferencedMessage{ID: m.ID(), Raw: m.Encode(), Message: m, WhiteFlagIndex: uint32(i)}
		if i == 1 {
			rm.InclusionState = Included
		}
		cm.Messages = append(cm.Messages, rm)
	}
	for i, o := range tx.Outputs {
		cm.Created = append(cm.Created, LedgerOutput{OutputID: NewOutputID(tx.ID(), uint16(i)),
			MessageID: msgs[1].ID(), Output: o, MilestoneIndex: fixtureIndex, Timestamp: fixtureTime})
	}
	spent := LedgerOutput{OutputID: spentID, Output: Output{Kind: OutputBasic, Amount: 1000,
		Address: ptr(fixtureAddr(1))}, MilestoneIndex: 4, Timestamp: fixtureTime.Add(-10 * time.Second)}
	cm.Consumed = []LedgerSpent{{LedgerOutput: spent, SpentBy: tx.ID(),
		SpentMilestoneIndex: fixtureIndex, SpentTimestamp: fixtureTime}}
	return cm
}

// replaceMessage swaps message i for m, keeping the fixture otherwise intact.
func replaceMessage(cm *ConfirmedMilestone, i int, m *Message) {
	cm.Messages[i].Message, cm.Messages[i].Raw, cm.Messages[i].ID = m, m.Encode(), m.ID()
}

func TestValidateAcceptsFixture(t *testing.T) {
	if err := Validate(fixtureMilestone()); err != nil {
		t.Fatal(err)
	}
	cm := fixtureMilestone()
	for i := range cm.Messages {
		cm.Messages[i].Message = nil // raw alone is enough
	}
	if err := Validate(cm); err != nil {
		t.Fatal(err)
	}
}

func TestValidateRejects(t *testing.T) {
	cases := []struct {
		name, field, reason string
		mutate              func(cm *ConfirmedMilestone)
	}{
		{"white flag gap", "messages[1].whiteFlagIndex", "want 1", func(cm *ConfirmedMilestone) { cm.Messages[1].WhiteFlagIndex = 2 }},
		{"id mismatch", "messages[0].id", "does not match", func(cm *ConfirmedMilestone) { cm.Messages[0].ID[0] ^= 1 }},
		{"truncated raw", "messages[0].nonce", "truncated", func(cm *ConfirmedMilestone) {
			cm.Messages[0].Raw = cm.Messages[0].Raw[:len(cm.Messages[0].Raw)-1]
			cm.Messages[0].Message = nil
		}},
		{"stale decoded", "messages[0]", "does not match its raw", func(cm *ConfirmedMilestone) { cm.Messages[0].Message.Nonce++ }},
		{"oversized", "messages[0]", "oversized", func(cm *ConfirmedMilestone) {
			replaceMessage(cm, 0, &Message{ProtocolVersion: ProtocolVersion, Parents: []MessageID{{1}},
				Payload: &TaggedData{Data: make([]byte, MaxMessageSize)}})
		}},
		{"unknown input", "messages[1].payload.inputs[0]", "unknown input", func(cm *ConfirmedMilestone) { cm.Consumed = nil }},
		{"unbalanced", "messages[1].payload.outputs", "do not balance", func(cm *ConfirmedMilestone) { cm.Consumed[0].Output.Amount = 999 }},
		{"missing created", "messages[1].payload.outputs[1]", "missing", func(cm *ConfirmedMilestone) { cm.Created = cm.Created[:1] }},
		{"created differs", "created[0].output", "differs", func(cm *ConfirmedMilestone) { cm.Created[0].Output.Amount = 1 }},
		{"stranger created", "created[0].outputId", "not included", func(cm *ConfirmedMilestone) { cm.Created[0].OutputID[0] ^= 1 }},
		{"double spend", "consumed[1].outputId", "spent twice", func(cm *ConfirmedMilestone) { cm.Consumed = append(cm.Consumed, cm.Consumed[0]) }},
		{"spent by stranger", "consumed[0].spentBy", "not included", func(cm *ConfirmedMilestone) { cm.Consumed[0].SpentBy[0] ^= 1 }},
		{"tx without state", "messages[1].inclusionState", "noTransaction for a transaction", func(cm *ConfirmedMilestone) { cm.Messages[1].InclusionState = NoTransaction }},
		{"conflict without reason", "messages[1].conflictReason", "without a reason", func(cm *ConfirmedMilestone) { cm.Messages[1].InclusionState = Conflicting }},
		{"reason on included", "messages[1].conflictReason", "given but state is included", func(cm *ConfirmedMilestone) { cm.Messages[1].ConflictReason = 3 }},
		{"milestone id", "milestoneId", "does not match", func(cm *ConfirmedMilestone) { cm.MilestoneID[0] ^= 1 }},
		{"milestone index", "index", "payload says 5", func(cm *ConfirmedMilestone) { cm.Index = 6 }},
		{"sub-second", "timestamp", "sub-second", func(cm *ConfirmedMilestone) { cm.Timestamp = cm.Timestamp.Add(time.Millisecond) }},
		{"milestone message missing", "messageId", "not among", func(cm *ConfirmedMilestone) { cm.MessageID[0] ^= 1 }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cm := fixtureMilestone()
			c.mutate(cm)
			wantField(t, Validate(cm), c.field, c.reason)
		})
	}
}

func TestValidateAcceptsGenesisOutputs(t *testing.T) {
	cm := fixtureMilestone()
	genesis := LedgerOutput{OutputID: NewOutputID(TransactionID{0x77}, 3), MilestoneIndex: fixtureIndex,
		Timestamp: fixtureTime, Output: Output{Kind: OutputLegacy, Amount: 5, Address: ptr(fixtureAddr(1))}}
	cm.Created = append(cm.Created, genesis)
	if err := Validate(cm); err != nil {
		t.Fatalf("genesis output (zero message id) rejected: %v", err)
	}
	cm.Created[len(cm.Created)-1].MessageID = MessageID{1}
	wantField(t, Validate(cm), "created[2].outputId", "not included")
}

func TestValidateIDErrorsWrapSentinel(t *testing.T) {
	cm := fixtureMilestone()
	cm.Messages[2].ID[5] ^= 0xff
	if err := Validate(cm); !errors.Is(err, ErrMalformedID) {
		t.Fatalf("err = %v, want ErrMalformedID", err)
	}
}
