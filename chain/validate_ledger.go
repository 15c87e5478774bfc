package chain

import (
	"bytes"
	"fmt"
	"math/bits"

	"golang.org/x/crypto/blake2b"
)

// includedTx is a transaction the milestone applied, and where it sits.
type includedTx struct {
	msgIndex  int
	messageID MessageID
	tx        *Transaction
}

func validateLedger(cm *ConfirmedMilestone, msgs []*Message) error {
	txs, order, err := includedTransactions(cm, msgs)
	if err != nil {
		return err
	}
	spent, err := validateConsumed(cm, txs)
	if err != nil {
		return err
	}
	created, err := validateCreated(cm, txs)
	if err != nil {
		return err
	}
	for _, id := range order {
		if err := validateApplied(id, txs[id], spent, created); err != nil {
			return err
		}
	}
	return nil
}

// includedTransactions indexes the applied transactions and also returns
// their IDs in white-flag order, so the first error reported is stable.
func includedTransactions(cm *ConfirmedMilestone, msgs []*Message) (map[TransactionID]includedTx, []TransactionID, error) {
	txs := make(map[TransactionID]includedTx)
	var order []TransactionID
	for i, m := range msgs {
		if cm.Messages[i].InclusionState != Included {
			continue
		}
		tx := m.TransactionOf()
		id := tx.ID()
		if prev, dup := txs[id]; dup {
			return nil, nil, invalid(joinField(indexed("messages", i), "inclusionState"),
				"transaction %s already included by messages[%d]", id, prev.msgIndex)
		}
		txs[id] = includedTx{msgIndex: i, messageID: cm.Messages[i].ID, tx: tx}
		order = append(order, id)
	}
	return txs, order, nil
}

// ledgerRecord is a created or consumed output record.
type ledgerRecord interface{ LedgerOutput | LedgerSpent }

// indexRecords keys records by output ID. An output ID may appear once (twice names the
// record's role in the error), and check must accept every record; errors name the
// record's place under path.
func indexRecords[T ledgerRecord](path, twice string, records []T, outputID func(*T) OutputID,
	check func(*T) error) (map[OutputID]*T, error) {
	byID := make(map[OutputID]*T, len(records))
	for j := range records {
		rec, field := &records[j], indexed(path, j)
		id := outputID(rec)
		if _, dup := byID[id]; dup {
			return nil, invalid(joinField(field, "outputId"), "%s %s twice", id, twice)
		}
		byID[id] = rec
		if err := check(rec); err != nil {
			return nil, underField(field, err)
		}
	}
	return byID, nil
}

func validateConsumed(cm *ConfirmedMilestone, txs map[TransactionID]includedTx) (map[OutputID]*LedgerSpent, error) {
	return indexRecords("consumed", "spent", cm.Consumed, func(ls *LedgerSpent) OutputID { return ls.OutputID },
		func(ls *LedgerSpent) error { return checkSpent(cm, ls, txs) })
}

func checkSpent(cm *ConfirmedMilestone, ls *LedgerSpent, txs map[TransactionID]includedTx) error {
	it, ok := txs[ls.SpentBy]
	switch {
	case ls.SpentMilestoneIndex != cm.Index:
		return invalid("spentMilestoneIndex", "%d in milestone %d", ls.SpentMilestoneIndex, cm.Index)
	case ls.MilestoneIndex > cm.Index:
		return invalid("milestoneIndex", "created in %d, after being spent in %d", ls.MilestoneIndex, cm.Index)
	case !ok:
		return invalid("spentBy", "transaction %s is not included in this milestone", ls.SpentBy)
	case !hasInput(it.tx, ls.OutputID):
		return invalid("outputId", "%s is not an input of transaction %s", ls.OutputID, ls.SpentBy)
	}
	return nil
}

func hasInput(tx *Transaction, id OutputID) bool {
	for _, in := range tx.Inputs {
		if in.OutputID() == id {
			return true
		}
	}
	return false
}

func validateCreated(cm *ConfirmedMilestone, txs map[TransactionID]includedTx) (map[OutputID]*LedgerOutput, error) {
	return indexRecords("created", "created", cm.Created, func(lo *LedgerOutput) OutputID { return lo.OutputID },
		func(lo *LedgerOutput) error { return checkCreated(cm, lo, txs) })
}

// checkCreated ties a created output to its transaction. Outputs with a
// zero MessageID came from no message: genesis or migrated legacy funds.
func checkCreated(cm *ConfirmedMilestone, lo *LedgerOutput, txs map[TransactionID]includedTx) error {
	if lo.MilestoneIndex != cm.Index {
		return invalid("milestoneIndex", "%d in milestone %d", lo.MilestoneIndex, cm.Index)
	}
	txID := lo.OutputID.TransactionID()
	it, ok := txs[txID]
	switch {
	case !ok && lo.MessageID == MessageID{}:
		return nil
	case !ok:
		return invalid("outputId", "transaction %s is not included in this milestone", txID)
	case int(lo.OutputID.Index()) >= len(it.tx.Outputs):
		return invalid("outputId", "index %d beyond the %d outputs of its transaction",
			lo.OutputID.Index(), len(it.tx.Outputs))
	case lo.MessageID != it.messageID:
		return invalid("messageId", "%s, but the transaction came in %s", lo.MessageID, it.messageID)
	case !bytes.Equal(EncodeOutput(lo.Output), EncodeOutput(it.tx.Outputs[lo.OutputID.Index()])):
		return invalid("output", "differs from output %d of its transaction", lo.OutputID.Index())
	}
	return nil
}

// validateApplied checks that an included transaction's inputs were all
// consumed, its outputs all created, and that base-token amounts balance.
func validateApplied(id TransactionID, it includedTx, spent map[OutputID]*LedgerSpent, created map[OutputID]*LedgerOutput) error {
	path := joinField(indexed("messages", it.msgIndex), "payload")
	var in, out uint64
	var overflow uint64
	commitment := make([]byte, 0, 32*len(it.tx.Inputs))
	for k, input := range it.tx.Inputs {
		ls, ok := spent[input.OutputID()]
		if !ok || ls.SpentBy != id {
			return invalid(indexed(joinField(path, "essence.inputs"), k),
				"unknown input %s: not among this milestone's consumed outputs", input.OutputID())
		}
		var carry uint64
		in, carry = bits.Add64(in, ls.Output.Amount, 0)
		overflow |= carry
		h := blake2b.Sum256(EncodeOutput(ls.Output))
		commitment = append(commitment, h[:]...)
	}
	if blake2b.Sum256(commitment) != it.tx.InputsCommitment {
		return invalid(joinField(path, "essence.inputsCommitment"),
			"does not commit to the outputs the milestone says its inputs consumed")
	}
	for k := range it.tx.Outputs {
		if created[NewOutputID(id, uint16(k))] == nil {
			return invalid(indexed(joinField(path, "essence.outputs"), k), "missing from the created outputs")
		}
		out += it.tx.Outputs[k].Amount // cannot overflow: the decoder checked the sum
	}
	if overflow != 0 || in != out {
		return invalid(joinField(path, "essence.outputs"), "amounts do not balance: inputs %s, outputs %d",
			sumText(in, overflow), out)
	}
	return nil
}

func sumText(sum, overflow uint64) string {
	if overflow != 0 {
		return "overflow uint64"
	}
	return fmt.Sprint(sum)
}
