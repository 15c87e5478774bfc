package bootstrap

import (
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
)

// diffPlan is the files' milestone diffs in the roles they play.
type diffPlan struct {
	rollback []*milestoneDiff // the full file's ledger index down to its target + 1: undone
	below    []*milestoneDiff // at or below the full file's target: verified and stored, not applied
	forward  []*milestoneDiff // the delta's: target + 1 up to the delta's target, applied
}

// orderFull checks that the full file's diffs (which the reader keeps contiguous,
// backwards from the ledger index, at least down to the target + 1) chain to one another
// and to the target milestone ID, and splits them.
func orderFull(h *snapshot.FullHeader, diffs []*milestoneDiff) (rollback, below []*milestoneDiff, err error) {
	for i, d := range diffs {
		if i > 0 && diffs[i-1].cm.PreviousMilestoneID != d.cm.MilestoneID {
			return nil, nil, refuse(ErrMilestoneChain, "milestone %d names previous milestone %s, milestone %d is %s",
				diffs[i-1].index(), diffs[i-1].cm.PreviousMilestoneID, d.index(), d.cm.MilestoneID)
		}
		if d.index() > h.TargetIndex {
			rollback = append(rollback, d)
		} else {
			below = append(below, d)
		}
	}
	return rollback, below, checkTarget(h, rollback, below)
}

// checkTarget checks the target milestone ID against the diffs around it.
func checkTarget(h *snapshot.FullHeader, rollback, below []*milestoneDiff) error {
	if n := len(rollback); n > 0 && rollback[n-1].cm.PreviousMilestoneID != h.TargetMilestoneID {
		return refuse(ErrMilestoneChain, "milestone %d names previous milestone %s, the target milestone ID is %s",
			rollback[n-1].index(), rollback[n-1].cm.PreviousMilestoneID, h.TargetMilestoneID)
	}
	if len(below) > 0 {
		t := below[0].cm
		if t.MilestoneID != h.TargetMilestoneID || uint32(t.Timestamp.Unix()) != h.TargetTimestamp {
			return refuse(ErrMilestoneChain, "target milestone %d is %s at %d, the header names %s at %d",
				t.Index, t.MilestoneID, t.Timestamp.Unix(), h.TargetMilestoneID, h.TargetTimestamp)
		}
	}
	return nil
}

// orderDelta checks that the delta continues the full file: it names the full file's
// target milestone, and its diffs start at the full target + 1 and end at its own
// target, each following the one before.
func orderDelta(full *snapshot.FullHeader, h *snapshot.DeltaHeader, diffs []*milestoneDiff) error {
	if h.FullTargetMilestoneID != full.TargetMilestoneID {
		return refuse(ErrDeltaMismatch, "the delta names full snapshot target milestone %s, the full snapshot's is %s",
			h.FullTargetMilestoneID, full.TargetMilestoneID)
	}
	if len(diffs) > 0 && uint64(diffs[0].index()) != uint64(full.TargetIndex)+1 {
		return refuse(ErrDiffOrder, "the delta's first diff is milestone %d, the full snapshot's target is %d",
			diffs[0].index(), full.TargetIndex)
	}
	prev := full.TargetMilestoneID
	for _, d := range diffs { // contiguous: the reader checks it
		if d.cm.PreviousMilestoneID != prev {
			return refuse(ErrMilestoneChain, "milestone %d names previous milestone %s, want %s",
				d.index(), d.cm.PreviousMilestoneID, prev)
		}
		prev = d.cm.MilestoneID
	}
	end, at := full.TargetIndex, full.TargetTimestamp
	if n := len(diffs); n > 0 {
		end, at = diffs[n-1].index(), uint32(diffs[n-1].cm.Timestamp.Unix())
	}
	if end != h.TargetIndex || at != h.TargetTimestamp {
		return refuse(ErrDeltaMismatch, "the delta's diffs end at milestone %d (%d), its header names target %d (%d)",
			end, at, h.TargetIndex, h.TargetTimestamp)
	}
	return nil
}

// sameMilestones checks that a milestone both files carry is the same in both.
func sameMilestones(rollback, forward []*milestoneDiff) error {
	ids := make(map[uint32]chain.MilestoneID, len(rollback))
	for _, d := range rollback {
		ids[d.index()] = d.cm.MilestoneID
	}
	for _, d := range forward {
		if id, ok := ids[d.index()]; ok && id != d.cm.MilestoneID {
			return refuse(ErrDeltaMismatch, "milestone %d is %s in the full snapshot, %s in the delta", d.index(), id, d.cm.MilestoneID)
		}
	}
	return nil
}
