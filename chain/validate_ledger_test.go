package chain_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Validate: the ledger changes are exactly what the included transactions did
// (validate_ledger.go).

func TestValidateConsumed(t *testing.T) {
	runCMCases(t, []cmCase{
		{"spent twice", "consumed[2].outputId", "spent twice", func(cm *chain.ConfirmedMilestone) {
			cm.Consumed = append(cm.Consumed, cm.Consumed[0])
		}},
		{"spent milestone", "consumed[0].spentMilestoneIndex", "4 in milestone 5", func(cm *chain.ConfirmedMilestone) {
			cm.Consumed[0].SpentMilestoneIndex = 4
		}},
		{"created after spent", "consumed[1].milestoneIndex", "created in 6, after being spent in 5", func(cm *chain.ConfirmedMilestone) {
			cm.Consumed[1].MilestoneIndex = 6
		}},
		{"spent by stranger", "consumed[0].spentBy", "is not included in this milestone", func(cm *chain.ConfirmedMilestone) {
			cm.Consumed[0].SpentBy[0] ^= 1
		}},
		{"spent by the conflicting one", "consumed[0].spentBy", "is not included in this milestone", func(cm *chain.ConfirmedMilestone) {
			cm.Consumed[0].SpentBy = cm.Messages[conflictingAt(cm)].Message.TransactionOf().ID()
		}},
		{"not an input", "consumed[1].outputId", "is not an input of transaction", func(cm *chain.ConfirmedMilestone) {
			cm.Consumed[1].OutputID = spentID(7)
		}},
	})
}

func TestValidateCreated(t *testing.T) {
	runCMCases(t, []cmCase{
		{"created twice", "created[2].outputId", "created twice", func(cm *chain.ConfirmedMilestone) {
			cm.Created = append(cm.Created, cm.Created[1])
		}},
		{"milestone index", "created[0].milestoneIndex", "4 in milestone 5", func(cm *chain.ConfirmedMilestone) { cm.Created[0].MilestoneIndex = 4 }},
		{"stranger", "created[0].outputId", "is not included in this milestone", func(cm *chain.ConfirmedMilestone) { cm.Created[0].OutputID[0] ^= 1 }},
		{"beyond outputs", "created[1].outputId", "index 5 beyond the 2 outputs", func(cm *chain.ConfirmedMilestone) {
			cm.Created[1].OutputID = chain.NewOutputID(cm.Created[1].OutputID.TransactionID(), 5)
		}},
		{"message id", "created[0].messageId", "but the transaction came in", func(cm *chain.ConfirmedMilestone) { cm.Created[0].MessageID[0] ^= 1 }},
		{"output differs", "created[1].output", "differs from output 1 of its transaction", func(cm *chain.ConfirmedMilestone) {
			cm.Created[1].Output.ImmutableMetadata = []byte("other")
		}},
	})
}

// Outputs that no message created (genesis, migrated funds) carry a zero message ID.
func TestValidateGenesisOutputs(t *testing.T) {
	cm := validMilestone()
	cm.Created = append(cm.Created, chain.LedgerOutput{OutputID: chain.NewOutputID(chain.TransactionID{0x77}, 3), MilestoneIndex: vIndex,
		Timestamp: vTime, Output: fixtureLegacyOutputs()[0]})
	if err := chain.Validate(cm); err != nil {
		t.Fatalf("genesis output refused: %v", err)
	}
	cm.Created[2].MessageID = chain.MessageID{1}
	wantField(t, chain.Validate(cm), "created[2].outputId", "is not included in this milestone")
}

func TestValidateApplied(t *testing.T) {
	at := func(f string) string {
		return fmt.Sprintf("messages[%d].payload.essence.%s", includedAt(validMilestone()), f)
	}
	runCMCases(t, []cmCase{
		{"unknown input", at("inputs[0]"), "not among this milestone's consumed outputs", func(cm *chain.ConfirmedMilestone) {
			cm.Consumed = cm.Consumed[1:]
		}},
		{"inputs commitment", at("inputsCommitment"), "does not commit to the outputs", func(cm *chain.ConfirmedMilestone) {
			cm.Consumed[1].Output.Address = ptr(fixtureAddr(9))
		}},
		{"missing created", at("outputs[1]"), "missing from the created outputs", func(cm *chain.ConfirmedMilestone) {
			cm.Created = cm.Created[:1]
		}},
	})
}

func TestValidateBalance(t *testing.T) {
	spec := defaultSpec()
	spec.spent[1].Amount = 500_000
	cm := validMilestoneWith(spec)
	field := fmt.Sprintf("messages[%d].payload.essence.outputs", includedAt(cm))
	wantField(t, chain.Validate(cm), field, "amounts do not balance: inputs 1100000, outputs 1000000")

	spec.spent[0].Amount, spec.spent[1].Amount = math.MaxUint64, 1
	wantField(t, chain.Validate(validMilestoneWith(spec)), field, "inputs overflow uint64")
}

// Two messages carrying the same transaction cannot both be included.
func TestValidateTransactionIncludedTwice(t *testing.T) {
	cm := validMilestone()
	tx := cm.Messages[includedAt(cm)].Message.TransactionOf()
	d := conflictingAt(cm)
	cm.Messages[d].InclusionState, cm.Messages[d].ConflictReason = chain.Included, chain.ConflictNone
	replaceMessage(cm, d, newMessage(tx, cm.Messages[d].Message.Parents...))
	first, second := includedAt(cm), indexWhere(cm, func(rm *chain.ReferencedMessage) bool {
		return rm.InclusionState == chain.Included && rm.ID != cm.Messages[includedAt(cm)].ID
	})
	wantField(t, chain.Validate(cm), fmt.Sprintf("messages[%d].inclusionState", second),
		fmt.Sprintf("already included by messages[%d]", first))
}
