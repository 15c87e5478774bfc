package chain_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Validate: the header and each referenced message on its own (validate.go).

type cmCase = fieldCase[*chain.ConfirmedMilestone]

var runCMCases = fieldCaseRunner(validMilestone, chain.Validate)

func TestValidateAcceptsFixture(t *testing.T) {
	cm := validMilestone()
	if err := chain.Validate(cm); err != nil {
		t.Fatal(err)
	}
	if len(cm.Messages) != 5 || len(cm.Created) != 2 || len(cm.Consumed) != 2 {
		t.Fatalf("fixture shape: %d messages", len(cm.Messages))
	}
	for i := range cm.Messages {
		cm.Messages[i].Message = nil // the raw bytes alone are enough
	}
	if err := chain.Validate(cm); err != nil {
		t.Fatal(err)
	}
}

func TestValidateHeader(t *testing.T) {
	runCMCases(t, []cmCase{
		{"index zero", "index", "must be positive", func(cm *chain.ConfirmedMilestone) { cm.Index = 0 }},
		{"index mismatch", "index", "6, but the milestone payload says 5", func(cm *chain.ConfirmedMilestone) { cm.Index = 6 }},
		{"no timestamp", "timestamp", "missing", func(cm *chain.ConfirmedMilestone) { cm.Timestamp = time.Time{} }},
		{"sub-second", "timestamp", "sub-second precision", func(cm *chain.ConfirmedMilestone) { cm.Timestamp = cm.Timestamp.Add(time.Millisecond) }},
		{"timestamp mismatch", "timestamp", "but the milestone payload says", func(cm *chain.ConfirmedMilestone) { cm.Timestamp = cm.Timestamp.Add(time.Second) }},
		{"no payload", "milestone", "missing", func(cm *chain.ConfirmedMilestone) { cm.Milestone = nil }},
		{"previous mismatch", "previousMilestoneId", "but the milestone payload says", func(cm *chain.ConfirmedMilestone) { cm.PreviousMilestoneID[0] ^= 1 }},
		{"milestone id", "milestoneId", "does not match the milestone payload", func(cm *chain.ConfirmedMilestone) { cm.MilestoneID[0] ^= 1 }},
	})
	cm := validMilestone()
	cm.MilestoneID[3] ^= 1
	if err := chain.Validate(cm); !errors.Is(err, chain.ErrMalformedID) {
		t.Fatalf("milestone ID error %v does not wrap ErrMalformedID", err)
	}
}

func TestValidateMessages(t *testing.T) {
	runCMCases(t, []cmCase{
		{"white-flag index", "messages[1].whiteFlagIndex", "is 2, want 1", func(cm *chain.ConfirmedMilestone) { cm.Messages[1].WhiteFlagIndex = 2 }},
		{"duplicate", "messages[2].id", "duplicate of messages[1]", func(cm *chain.ConfirmedMilestone) { cm.Messages[2] = cm.Messages[1] }},
		{"id mismatch", "messages[0].id", "does not match BLAKE2b-256 of the raw bytes", func(cm *chain.ConfirmedMilestone) { cm.Messages[0].ID[0] ^= 1 }},
		{"truncated raw", "messages[0].nonce", "truncated", func(cm *chain.ConfirmedMilestone) {
			cm.Messages[0].Raw = cm.Messages[0].Raw[:len(cm.Messages[0].Raw)-1]
			cm.Messages[0].Message = nil
		}},
		{"stale decoded", "messages[0]", "does not match its raw bytes", func(cm *chain.ConfirmedMilestone) { cm.Messages[0].Message.Nonce++ }},
		{"oversized", "messages[0]", "oversized", func(cm *chain.ConfirmedMilestone) {
			m := newMessage(&chain.TaggedData{Data: make([]byte, chain.MaxMessageSize)})
			cm.Messages[0].Message, cm.Messages[0].Raw, cm.Messages[0].ID = m, m.Encode(), m.ID()
		}},
	})
	cm := validMilestone()
	cm.Messages[1].ID[5] ^= 0xff
	if err := chain.Validate(cm); !errors.Is(err, chain.ErrMalformedID) {
		t.Fatalf("message ID error %v does not wrap ErrMalformedID", err)
	}
}

func TestValidateVerdicts(t *testing.T) {
	cm := validMilestone()
	tx, conflict, tagged := includedAt(cm), conflictingAt(cm), taggedAt(cm)
	at := func(i int, f string) string { return fmt.Sprintf("messages[%d].%s", i, f) }
	runCMCases(t, []cmCase{
		{"tx without state", at(tx, "inclusionState"), "noTransaction for a transaction message",
			func(cm *chain.ConfirmedMilestone) { cm.Messages[tx].InclusionState = chain.NoTransaction }},
		{"tagged included", at(tagged, "inclusionState"), "included for a message without transaction",
			func(cm *chain.ConfirmedMilestone) { cm.Messages[tagged].InclusionState = chain.Included }},
		{"tagged conflicting", at(tagged, "inclusionState"), "conflicting for a message without transaction",
			func(cm *chain.ConfirmedMilestone) { cm.Messages[tagged].InclusionState = chain.Conflicting }},
		{"unknown state", at(tx, "inclusionState"), "unknown state 3", func(cm *chain.ConfirmedMilestone) { cm.Messages[tx].InclusionState = 3 }},
		{"unknown reason", at(conflict, "conflictReason"), "unknown reason 13",
			func(cm *chain.ConfirmedMilestone) { cm.Messages[conflict].ConflictReason = 13 }},
		{"conflict without reason", at(conflict, "conflictReason"), "conflicting without a reason",
			func(cm *chain.ConfirmedMilestone) { cm.Messages[conflict].ConflictReason = chain.ConflictNone }},
		{"reason on included", at(tx, "conflictReason"), "reason inputUTXONotFound given but state is included",
			func(cm *chain.ConfirmedMilestone) { cm.Messages[tx].ConflictReason = chain.ConflictInputNotFound }},
		{"reason on tagged", at(tagged, "conflictReason"), "given but state is noTransaction",
			func(cm *chain.ConfirmedMilestone) {
				cm.Messages[tagged].ConflictReason = chain.ConflictSemanticValidationFailed
			}},
	})
}
