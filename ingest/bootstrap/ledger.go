package bootstrap

import (
	"bytes"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// treasury is the treasury output the ledger holds: the milestone that made it and its amount.
type treasury struct {
	milestone chain.MilestoneID
	amount    uint64
}

// ledgerTotals are the size of a ledger: its outputs, their amounts and the treasury.
type ledgerTotals struct {
	outputs  uint64
	sum      uint64
	treasury treasury
}

// diffLedger follows the outputs the diffs name through the rollback and the delta. Only
// those are in memory: every other output of the file is unspent at the target and at L.
type diffLedger struct {
	records map[chain.OutputID]chain.LedgerOutput // each named output as the diffs record it
	inFile  map[chain.OutputID]bool               // whether the full file's output list holds it
	present map[chain.OutputID]bool               // whether the ledger holds it now
	totals  ledgerTotals
}

// newDiffLedger collects the outputs the diffs name, refusing one recorded two ways.
func newDiffLedger(diffs ...[]*milestoneDiff) (*diffLedger, error) {
	l := &diffLedger{records: map[chain.OutputID]chain.LedgerOutput{}, inFile: map[chain.OutputID]bool{},
		present: map[chain.OutputID]bool{}}
	for _, list := range diffs {
		for _, d := range list {
			for i := range d.cm.Created {
				if err := l.record(d.index(), &d.cm.Created[i]); err != nil {
					return nil, err
				}
			}
			for i := range d.cm.Consumed {
				if err := l.record(d.index(), &d.cm.Consumed[i].LedgerOutput); err != nil {
					return nil, err
				}
			}
		}
	}
	return l, nil
}

func (l *diffLedger) record(index uint32, lo *chain.LedgerOutput) error {
	if prev, ok := l.records[lo.OutputID]; ok && !sameOutput(&prev, lo) {
		return refuse(ErrDiffLedger, "milestone diff %d records output %s otherwise than another diff", index, lo.OutputID)
	}
	l.records[lo.OutputID] = *lo
	return nil
}

// sameOutput compares what a file records of an output: its booking and its bytes.
func sameOutput(a, b *chain.LedgerOutput) bool {
	return a.OutputID == b.OutputID && a.MessageID == b.MessageID && a.MilestoneIndex == b.MilestoneIndex &&
		a.Timestamp.Equal(b.Timestamp) && bytes.Equal(chain.EncodeOutput(a.Output), chain.EncodeOutput(b.Output))
}

// named reports whether a diff names id, with the diffs' record of it.
func (l *diffLedger) named(id chain.OutputID) (chain.LedgerOutput, bool) {
	lo, ok := l.records[id]
	return lo, ok
}

// rollBack undoes a milestone: its created outputs leave the ledger, its consumed ones
// return, and a receipt's treasury goes back to the one it consumed.
func (l *diffLedger) rollBack(d *milestoneDiff) error {
	if err := l.rollTreasuryBack(d); err != nil {
		return err
	}
	for i := range d.cm.Created {
		if err := l.remove(d, d.cm.Created[i].OutputID, "created"); err != nil {
			return err
		}
	}
	for i := range d.cm.Consumed {
		if err := l.add(d, d.cm.Consumed[i].OutputID, "consumed"); err != nil {
			return err
		}
	}
	return nil
}

// apply applies a milestone: its consumed outputs leave the ledger, its created ones join.
func (l *diffLedger) apply(d *milestoneDiff) error {
	if err := l.applyTreasury(d); err != nil {
		return err
	}
	for i := range d.cm.Consumed {
		if err := l.remove(d, d.cm.Consumed[i].OutputID, "consumed"); err != nil {
			return err
		}
	}
	for i := range d.cm.Created {
		if err := l.add(d, d.cm.Created[i].OutputID, "created"); err != nil {
			return err
		}
	}
	return nil
}

func (l *diffLedger) remove(d *milestoneDiff, id chain.OutputID, role string) error {
	if !l.present[id] {
		return refuse(ErrDiffLedger, "milestone %d %s output %s, which the ledger does not hold there", d.index(), role, id)
	}
	l.present[id] = false
	l.totals.outputs--
	l.totals.sum -= l.records[id].Output.Amount
	return nil
}

func (l *diffLedger) add(d *milestoneDiff, id chain.OutputID, role string) error {
	if l.present[id] {
		return refuse(ErrDiffLedger, "milestone %d %s output %s, which the ledger holds already there", d.index(), role, id)
	}
	l.present[id] = true
	l.totals.outputs++
	l.totals.sum += l.records[id].Output.Amount
	return nil
}

// rollTreasuryBack: a milestone with a receipt made the treasury the ledger holds after
// it from the one its diff names as consumed.
func (l *diffLedger) rollTreasuryBack(d *milestoneDiff) error {
	rc := d.cm.Milestone.Receipt
	if err := receiptMatchesDiff(d); err != nil || rc == nil {
		return err
	}
	if now := (treasury{d.cm.MilestoneID, rc.Transaction.OutputAmount}); l.totals.treasury != now {
		return refuse(ErrTreasury, "milestone %d made treasury %s/%d, the ledger holds %s/%d", d.index(),
			now.milestone, now.amount, l.totals.treasury.milestone, l.totals.treasury.amount)
	}
	l.totals.treasury = treasury{d.treasury.MilestoneID, d.treasury.Amount}
	return nil
}

// applyTreasury: a milestone with a receipt consumes the treasury the ledger holds and
// makes a new one.
func (l *diffLedger) applyTreasury(d *milestoneDiff) error {
	rc := d.cm.Milestone.Receipt
	if err := receiptMatchesDiff(d); err != nil || rc == nil {
		return err
	}
	in := treasury{d.treasury.MilestoneID, d.treasury.Amount}
	if in != l.totals.treasury {
		return refuse(ErrTreasury, "milestone %d consumes treasury %s/%d, the ledger holds %s/%d", d.index(),
			in.milestone, in.amount, l.totals.treasury.milestone, l.totals.treasury.amount)
	}
	l.totals.treasury = treasury{d.cm.MilestoneID, rc.Transaction.OutputAmount}
	return nil
}

// receiptMatchesDiff: a diff names a consumed treasury exactly when its milestone has a
// receipt, and the receipt's transaction consumes that treasury.
func receiptMatchesDiff(d *milestoneDiff) error {
	rc := d.cm.Milestone.Receipt
	switch {
	case (rc == nil) != (d.treasury == nil):
		return refuse(ErrTreasury, "milestone %d: receipt %t, consumed treasury in the diff %t", d.index(), rc != nil, d.treasury != nil)
	case rc != nil && rc.Transaction.InputMilestoneID != d.treasury.MilestoneID:
		return refuse(ErrTreasury, "milestone %d: the receipt consumes treasury %s, the diff names %s", d.index(),
			rc.Transaction.InputMilestoneID, d.treasury.MilestoneID)
	}
	return nil
}

// atTarget is what the ledger at the full file's target differs by from the file's
// output list (call it after the rollback): the listed outputs it does not hold, and the
// outputs it holds that the list lacks (consumed by a rolled-back milestone).
func (l *diffLedger) atTarget() (skip map[chain.OutputID]bool, restore []chain.LedgerOutput) {
	skip = map[chain.OutputID]bool{}
	for id, in := range l.inFile {
		if in && !l.present[id] {
			skip[id] = true
		}
	}
	for id, now := range l.present {
		if now && !l.inFile[id] {
			restore = append(restore, l.records[id])
		}
	}
	return skip, restore
}
