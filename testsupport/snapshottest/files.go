package snapshottest

import (
	"os"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
)

// Milestone is milestone index (1..Milestones).
func (c *Chain) Milestone(index uint32) *chain.ConfirmedMilestone { return c.Milestones[index-1] }

// unspentAt reports whether an output is unspent after milestone index.
func (c *Chain) unspentAt(id chain.OutputID, index uint32) bool {
	at, spent := c.consumedAt[id]
	return !spent || at > index
}

// ForEachUnspent calls f for every output unspent after milestone index: the genesis
// ones in order, then the created ones in milestone order.
func (c *Chain) ForEachUnspent(index uint32, f func(chain.LedgerOutput) error) error {
	for i := range c.opts.Outputs {
		if lo := c.Genesis(i); c.unspentAt(lo.OutputID, index) {
			if err := f(lo); err != nil {
				return err
			}
		}
	}
	for _, cm := range c.Milestones[:index] {
		for _, lo := range cm.Created {
			if c.unspentAt(lo.OutputID, index) {
				if err := f(lo); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// Ledger is the unspent set after milestone index (in memory: for small chains).
func (c *Chain) Ledger(index uint32) map[chain.OutputID]chain.LedgerOutput {
	out := map[chain.OutputID]chain.LedgerOutput{}
	_ = c.ForEachUnspent(index, func(lo chain.LedgerOutput) error { out[lo.OutputID] = lo; return nil })
	return out
}

// SEPs are the made-up solid entry points of milestone index.
func (c *Chain) SEPs(index uint32) []chain.MessageID {
	return []chain.MessageID{chain.MessageID(c.derive("sep-a", uint64(index))), chain.MessageID(c.derive("sep-b", uint64(index)))}
}

// Edit changes a file before it is written, for tests of what a reader refuses: the
// full header, the output list (held in memory when Outputs is set), the diffs.
type Edit struct {
	Full    func(*snapshot.FullHeader)
	Delta   func(*snapshot.DeltaHeader)
	Outputs func([]*snapshot.Output) []*snapshot.Output
	Diffs   func([]*snapshot.Diff) []*snapshot.Diff
}

// WriteFull writes a full snapshot whose ledger is the one after milestone ledger, with
// diffs back to target and below more diffs at or below target, as Hornet writes one.
func (c *Chain) WriteFull(path string, target, ledger uint32, below int) error {
	return c.WriteFullEdited(path, target, ledger, below, Edit{})
}

// WriteFullEdited is WriteFull with e's changes.
func (c *Chain) WriteFullEdited(path string, target, ledger uint32, below int, e Edit) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	tr := c.Treasury[ledger]
	h := snapshot.FullHeader{TargetIndex: target, TargetTimestamp: uint32(Timestamp(target).Unix()),
		LedgerIndex: ledger, TreasuryMilestoneID: tr.MilestoneID, TreasuryAmount: tr.Amount,
		Protocol: snapshot.ProtocolParamsOption{ProtocolVersion: chain.ProtocolVersion, Params: c.Params(),
			Raw: chain.EncodeProtocolParameters(c.Params())}}
	if target > 0 {
		h.TargetMilestoneID = c.Milestone(target).MilestoneID
	}
	outputs := c.outputList(ledger, e.Outputs)
	if e.Full != nil {
		e.Full(&h)
	}
	w, err := snapshot.NewFullWriter(f, h)
	if err != nil {
		return err
	}
	if err := outputs(w); err != nil {
		return err
	}
	var diffs []*snapshot.Diff
	for i := int64(ledger); i > int64(target)-int64(below) && i >= 1; i-- {
		diffs = append(diffs, c.Diff(uint32(i)))
	}
	if err := writeDiffs(w, diffs, e.Diffs); err != nil {
		return err
	}
	if err := c.writeSEPs(w, target); err != nil {
		return err
	}
	return w.Close()
}

// WriteDelta writes a delta snapshot from the full snapshot's target to milestone to.
func (c *Chain) WriteDelta(path string, fullTarget, to uint32) error {
	return c.WriteDeltaEdited(path, fullTarget, to, Edit{})
}

// WriteDeltaEdited is WriteDelta with e's changes (Delta, Diffs).
func (c *Chain) WriteDeltaEdited(path string, fullTarget, to uint32, e Edit) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	h := snapshot.DeltaHeader{TargetIndex: to, TargetTimestamp: uint32(Timestamp(to).Unix()),
		FullTargetMilestoneID: c.Milestone(fullTarget).MilestoneID}
	if e.Delta != nil {
		e.Delta(&h)
	}
	w, err := snapshot.NewDeltaWriter(f, h)
	if err != nil {
		return err
	}
	var diffs []*snapshot.Diff
	for i := fullTarget + 1; i <= to; i++ {
		diffs = append(diffs, c.Diff(i))
	}
	if err := writeDiffs(w, diffs, e.Diffs); err != nil {
		return err
	}
	if err := c.writeSEPs(w, to); err != nil {
		return err
	}
	return w.Close()
}

// outputList returns what writes the ledger after milestone ledger: streamed, or, when
// edit is set, edited first (so an edit of the header can see the edited list).
func (c *Chain) outputList(ledger uint32, edit func([]*snapshot.Output) []*snapshot.Output) func(*snapshot.Writer) error {
	if edit == nil {
		return func(w *snapshot.Writer) error {
			return c.ForEachUnspent(ledger, func(lo chain.LedgerOutput) error { return w.WriteOutput(Entry(lo)) })
		}
	}
	var outs []*snapshot.Output
	_ = c.ForEachUnspent(ledger, func(lo chain.LedgerOutput) error { outs = append(outs, Entry(lo)); return nil })
	outs = edit(outs)
	return func(w *snapshot.Writer) error {
		for _, o := range outs {
			if err := w.WriteOutput(o); err != nil {
				return err
			}
		}
		return nil
	}
}

func writeDiffs(w *snapshot.Writer, diffs []*snapshot.Diff, edit func([]*snapshot.Diff) []*snapshot.Diff) error {
	if edit != nil {
		diffs = edit(diffs)
	}
	for _, d := range diffs {
		if err := w.WriteDiff(d); err != nil {
			return err
		}
	}
	return nil
}

func (c *Chain) writeSEPs(w *snapshot.Writer, index uint32) error {
	for _, id := range c.SEPs(index) {
		if err := w.WriteSEP(id); err != nil {
			return err
		}
	}
	return nil
}

// Diff is milestone index as a snapshot's milestone diff.
func (c *Chain) Diff(index uint32) *snapshot.Diff {
	cm := c.Milestone(index)
	d := DiffOf(cm)
	if rc := cm.Milestone.Receipt; rc != nil {
		d.Treasury = &snapshot.TreasuryInput{MilestoneID: rc.Transaction.InputMilestoneID, Amount: c.Treasury[index-1].Amount}
	}
	return d
}

// DiffOf is a confirmed milestone's ledger changes as a snapshot's milestone diff (a
// receipt's treasury input is the caller's: the milestone does not say its amount).
func DiffOf(cm *chain.ConfirmedMilestone) *snapshot.Diff {
	d := &snapshot.Diff{Milestone: cm.Milestone, RawMilestone: cm.Milestone.Encode()}
	for _, lo := range cm.Created {
		d.Created = append(d.Created, *Entry(lo))
	}
	for _, ls := range cm.Consumed {
		d.Consumed = append(d.Consumed, snapshot.Spent{Output: *Entry(ls.LedgerOutput), SpentBy: ls.SpentBy})
	}
	return d
}

// Entry is an output as a snapshot file lists it.
func Entry(lo chain.LedgerOutput) *snapshot.Output {
	return &snapshot.Output{OutputID: lo.OutputID, BlockID: lo.MessageID, BookedIndex: lo.MilestoneIndex,
		BookedTimestamp: uint32(lo.Timestamp.Unix()), Raw: chain.EncodeOutput(lo.Output)}
}

// Sign signs a milestone (edited by a test) with the network's keys.
func (c *Chain) Sign(mp *chain.MilestonePayload) { mp.Sign(c.keys...) }
