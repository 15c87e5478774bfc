package snapshot

import (
	"fmt"
	"math"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// minDiffLen is the smallest diff: its length, the payload's length, two counts (a
// payload of at least one byte comes on top).
const minDiffLen = 4 + 4 + 4 + 4

// readDiff reads diff i: its length (which counts its own four bytes and must match what
// the diff holds exactly), the milestone payload, the treasury input when the milestone
// has a receipt, the created outputs and the consumed ones.
func (r *Reader) readDiff(i int64) (*Diff, error) {
	start := r.off
	r.where = place{offset: start, diff: i, item: -1}
	n, err := r.length("length", minDiffLen+1, math.MaxUint32)
	if err != nil {
		return nil, err
	}
	if err := r.checkDiffLength(start, int64(n)); err != nil {
		return nil, err
	}
	r.limit = start + int64(n)
	d := &Diff{}
	if err := r.readMilestone(d); err != nil {
		return nil, err
	}
	if err := r.readCreated(d, i); err != nil {
		return nil, err
	}
	if err := r.readConsumed(d, i); err != nil {
		return nil, err
	}
	r.where = place{offset: start, diff: i, item: -1}
	if r.off != r.limit {
		return nil, r.refuse(start, "length", ErrMalformed,
			fmt.Errorf("%d bytes, the diff holds %d", n, r.off-start))
	}
	r.limit = -1
	return d, nil
}

// checkDiffLength refuses a diff whose stated length passes the limit of one diff, or
// brings the file's diffs past the limit of all, before any of its bytes is read.
func (r *Reader) checkDiffLength(at, n int64) error {
	if n > r.limits.DiffLength {
		return r.refuse(at, "length", ErrDiffTooLarge, fmt.Errorf("%d bytes, the limit is %d", n, r.limits.DiffLength))
	}
	if r.diffBytes+n > r.limits.DiffsLength {
		return r.refuse(at, "length", ErrDiffsTooLarge,
			fmt.Errorf("%d bytes after %d of the diffs before it, the limit is %d", n, r.diffBytes, r.limits.DiffsLength))
	}
	r.diffBytes += n
	return nil
}

// readMilestone reads the payload (decoded strictly), checks its place in the order and
// reads the treasury input that a receipt brings.
func (r *Reader) readMilestone(d *Diff) error {
	n, err := r.length("milestone payload length", 1, MaxMilestoneLength)
	if err != nil {
		return err
	}
	at := r.off
	d.RawMilestone = make([]byte, n)
	if err := r.fill("milestone payload", d.RawMilestone); err != nil {
		return err
	}
	if d.Milestone, err = chain.DecodeMilestonePayload(d.RawMilestone); err != nil {
		return r.refuse(at, "milestone payload", ErrMalformed, err)
	}
	if err := r.checkOrder(d.Milestone.Index, at+4); err != nil {
		return err
	}
	if d.Milestone.Receipt == nil {
		return nil
	}
	d.Treasury = &TreasuryInput{}
	if err := r.fill("treasury input milestone ID", d.Treasury.MilestoneID[:]); err != nil {
		return err
	}
	d.Treasury.Amount, err = r.u64("treasury input amount")
	return err
}

// checkOrder: a full file's diff i is of milestone ledger index - i (the diffs roll the
// ledger back); a delta file's diffs are of consecutive milestones, the last one its target.
func (r *Reader) checkOrder(index uint32, at int64) error {
	i := int64(r.diffs)
	var cause error
	switch {
	case r.full != nil && int64(index) != int64(r.full.LedgerIndex)-i:
		cause = fmt.Errorf("milestone %d where %d was due (backwards from the ledger index %d)",
			index, int64(r.full.LedgerIndex)-i, r.full.LedgerIndex)
	case r.delta != nil && i > 0 && int64(index) != int64(r.last)+1:
		cause = fmt.Errorf("milestone %d after %d", index, r.last)
	case r.delta != nil && i == int64(r.delta.DiffCount)-1 && index != r.delta.TargetIndex:
		cause = fmt.Errorf("the last diff is of milestone %d, the target is %d", index, r.delta.TargetIndex)
	}
	if cause != nil {
		return r.refuse(at, "milestone index", ErrOrder, cause)
	}
	return nil
}

// readCreated reads the created count and outputs.
func (r *Reader) readCreated(d *Diff, i int64) error {
	n, err := r.count("created outputs count", outputHeadLen+1)
	if err != nil {
		return err
	}
	return r.readDiffOutputs(n, i, "created", func(o *Output) error {
		d.Created = append(d.Created, *o)
		return nil
	})
}

// readConsumed reads the consumed count and outputs, each followed by the ID of the
// transaction that spent it.
func (r *Reader) readConsumed(d *Diff, i int64) error {
	n, err := r.count("consumed outputs count", outputHeadLen+1+idLen)
	if err != nil {
		return err
	}
	return r.readDiffOutputs(n, i, "consumed", func(o *Output) error {
		s := Spent{Output: *o}
		if err := r.fill("spending transaction ID", s.SpentBy[:]); err != nil {
			return err
		}
		d.Consumed = append(d.Consumed, s)
		return nil
	})
}

// readDiffOutputs reads n outputs of diff i's part, passing each to f as it is read.
func (r *Reader) readDiffOutputs(n, i int64, part string, f func(*Output) error) error {
	for j := range n {
		o, err := r.readOutput(place{offset: r.off, diff: i, part: part, item: j})
		if err != nil {
			return err
		}
		if err := f(o); err != nil {
			return err
		}
	}
	return nil
}

// count reads a u32 count of entries of at least minLen bytes each and refuses one that
// cannot fit in what is left of the diff.
func (r *Reader) count(name string, minLen int64) (int64, error) {
	r.where.part, r.where.item = "", -1
	at := r.off
	n, err := r.u32(name)
	if err != nil {
		return 0, err
	}
	if left := r.limit - r.off; int64(n)*minLen > left {
		return 0, r.refuse(at, name, ErrMalformed,
			fmt.Errorf("%d entries cannot fit in the %d bytes left of the diff", n, left))
	}
	return int64(n), nil
}
