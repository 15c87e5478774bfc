package bootstrap

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
)

// milestoneDiff is a decoded milestone diff: the milestone with the outputs it created
// and consumed, as store writes a milestone's ledger changes.
type milestoneDiff struct {
	cm       *chain.ConfirmedMilestone
	treasury *snapshot.TreasuryInput
}

func (d *milestoneDiff) index() uint32 { return d.cm.Index }

// decodeDiff decodes a diff's outputs strictly.
func decodeDiff(d *snapshot.Diff) (*milestoneDiff, error) {
	mp := d.Milestone
	created, consumed, err := d.Ledger()
	if err != nil {
		return nil, fmt.Errorf("milestone diff %d: %w", mp.Index, err)
	}
	cm := &chain.ConfirmedMilestone{Index: mp.Index, Timestamp: time.Unix(int64(mp.Timestamp), 0).UTC(),
		MilestoneID: mp.ID(), PreviousMilestoneID: mp.PreviousMilestoneID, Milestone: mp, Created: created, Consumed: consumed}
	return &milestoneDiff{cm: cm, treasury: d.Treasury}, nil
}

// readDiffs reads the rest of a file after its outputs: every diff, then the SEPs, then
// the end of the file. Each diff's milestone is verified as it is read, before its outputs
// are decoded and the next diff is read: a forged diff stops the reading where it lies.
func readDiffs(r *snapshot.Reader, keys *chain.MilestoneKeys) ([]*milestoneDiff, []chain.MessageID, error) {
	var out []*milestoneDiff
	for {
		d, err := r.NextDiff()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		if err := verifyMilestone(keys, d.Milestone); err != nil {
			return nil, nil, err
		}
		md, err := decodeDiff(d)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, md)
	}
	var seps []chain.MessageID
	for {
		sep, err := r.NextSEP()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		seps = append(seps, sep)
	}
	return out, seps, r.Finish()
}

// verifyMilestone checks a diff's milestone signatures.
func verifyMilestone(keys *chain.MilestoneKeys, mp *chain.MilestonePayload) error {
	if keys == nil {
		return refuse(ErrNoMilestoneKeys, "milestone %d needs verifying: give -milestone-keys", mp.Index)
	}
	if err := keys.Verify(mp); err != nil {
		return fmt.Errorf("milestone diff %d: %w", mp.Index, err)
	}
	return nil
}
