package snapshotexport

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// walkBatch is how many milestone payloads the walk reads at once.
const walkBatch = 256

// storedMilestone is a milestones row's payload: its bytes as the network serialized
// them and their decoding.
type storedMilestone struct {
	raw []byte
	mp  *chain.MilestonePayload
}

// readMilestone reads milestone index's payload from its milestones row.
func readMilestone(ctx context.Context, st *store.Store, index uint32) (storedMilestone, error) {
	rec, err := st.Milestone(ctx, index)
	if err != nil {
		return storedMilestone{}, fmt.Errorf("milestone %d: %w", index, err)
	}
	mp, err := chain.DecodeMilestonePayload(rec.Payload)
	if err != nil {
		return storedMilestone{}, fmt.Errorf("milestone %d: stored payload: %w", index, err)
	}
	if mp.Index != index {
		return storedMilestone{}, fmt.Errorf("milestone %d: its row holds the payload of milestone %d: %w", index, mp.Index, ErrLedgerRows)
	}
	return storedMilestone{raw: rec.Payload, mp: mp}, nil
}

// walk reads the payloads of the milestones past L up to X, in order, a batch at a time:
// each receipt moves the treasury, each protocol parameters option due by X replaces the
// parameters, and N's payload gives the target's ID and time.
func (e *export) walk(ctx context.Context) error {
	for from := uint64(e.l) + 1; from <= uint64(e.x); from += walkBatch {
		to := min(from+walkBatch-1, uint64(e.x))
		batch := make([]storedMilestone, to-from+1)
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(e.cfg.Reads)
		for i := range batch {
			g.Go(func() (err error) {
				batch[i], err = readMilestone(gctx, e.st, uint32(from)+uint32(i))
				return err
			})
		}
		if err := g.Wait(); err != nil {
			return err
		}
		for _, sm := range batch {
			if err := e.step(sm.mp); err != nil {
				return err
			}
		}
		if (to-uint64(e.l))%(100*walkBatch) == 0 {
			e.log.Info("export: reading the milestones past the bootstrap", "milestone", to, "to", e.x)
		}
	}
	return nil
}

// step applies one milestone's effect on the header.
func (e *export) step(mp *chain.MilestonePayload) error {
	if mp.Index == e.n {
		e.targetID, e.targetTime = mp.ID(), mp.Timestamp
	}
	if rc := mp.Receipt; rc != nil {
		if err := e.receipt(mp, rc); err != nil {
			return err
		}
	}
	if po := mp.ProtocolParams; po != nil && po.TargetMilestoneIndex <= e.x && po.TargetMilestoneIndex >= e.option.TargetIndex {
		params, err := chain.DecodeProtocolParameters(po.Params)
		if err != nil {
			return fmt.Errorf("milestone %d: protocol parameters option: %w", mp.Index, err)
		}
		e.option = snapshot.ProtocolParamsOption{TargetIndex: po.TargetMilestoneIndex, ProtocolVersion: po.ProtocolVersion,
			Params: params, Raw: po.Params}
	}
	return nil
}

// receipt spends the treasury output and makes the milestone's. The receipt names the
// milestone of the output it spends, which must be the treasury's (and tells it when the
// bootstrap record does not).
func (e *export) receipt(mp *chain.MilestonePayload, rc *chain.Receipt) error {
	in := rc.Transaction.InputMilestoneID
	if in != e.treasury.MilestoneID {
		return fmt.Errorf("milestone %d: its receipt spends the treasury of milestone %s, the ledger's is of %s: %w",
			mp.Index, in, e.treasury.MilestoneID, ErrLedgerRows)
	}
	e.spentTreasury[mp.Index] = snapshot.TreasuryInput{MilestoneID: in, Amount: e.treasury.Amount}
	e.treasury = snapshot.TreasuryInput{MilestoneID: mp.ID(), Amount: rc.Transaction.OutputAmount}
	return nil
}
