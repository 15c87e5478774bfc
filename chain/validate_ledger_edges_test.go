package chain

import (
	"strings"
	"testing"
)

// An output created and spent in the same milestone is valid: a transaction may spend
// what another one of the milestone created.
func TestSpentInTheMilestoneItWasCreatedIn(t *testing.T) {
	cm := &ConfirmedMilestone{Index: 5}
	in := Input{TransactionID: TransactionID{1}, Index: 0}
	spender := TransactionID{2}
	txs := map[TransactionID]includedTx{spender: {tx: &Transaction{Inputs: []Input{in}}}}
	ls := &LedgerSpent{LedgerOutput: LedgerOutput{OutputID: in.OutputID(), MilestoneIndex: 5},
		SpentBy: spender, SpentMilestoneIndex: 5}
	if err := checkSpent(cm, ls, txs); err != nil {
		t.Fatalf("an output created and spent in milestone 5: %v", err)
	}
}

// A created output whose index is one past its transaction's outputs is refused.
func TestCreatedIndexOnePastTheOutputs(t *testing.T) {
	cm := &ConfirmedMilestone{Index: 5}
	txID := TransactionID{1}
	txs := map[TransactionID]includedTx{txID: {messageID: MessageID{9}, tx: &Transaction{Outputs: []Output{{Kind: OutputBasic, Amount: 1}}}}}
	lo := &LedgerOutput{OutputID: NewOutputID(txID, 1), MessageID: MessageID{9}, MilestoneIndex: 5}
	if err := checkCreated(cm, lo, txs); err == nil || !strings.Contains(err.Error(), "beyond the 1 outputs") {
		t.Fatalf("output index 1 of a transaction of 1 output: %v; want it refused", err)
	}
}
