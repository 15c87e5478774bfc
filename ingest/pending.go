package ingest

import (
	"context"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// The pending floor is the lowest estimated milestone any unreferenced message was
// written for. Only milestones from there on can reference a message with pending rows,
// so a backfill of older milestones never pays the reads of pending marks.

func (p *Pipeline) loadPendingFloor(ctx context.Context) error {
	floor, err := p.st.PendingFloor(ctx)
	if err == nil && floor != 0 {
		p.pendingFloor.Store(floor)
	}
	return err
}

// notePending lowers the floor to est before pending rows estimated below it are written
// (a floor is never raised: the store lowers it by a conditional write).
func (p *Pipeline) notePending(ctx context.Context, est uint32) error {
	if f := p.pendingFloor.Load(); f != 0 && f <= est {
		return nil
	}
	if err := p.st.LowerPendingFloor(ctx, est, p.node()); err != nil {
		return err
	}
	return p.loadPendingFloor(ctx)
}

// pendingMarks reads, for the messages of cm, which were written as unreferenced.
func (p *Pipeline) pendingMarks(ctx context.Context, cm *chain.ConfirmedMilestone) (map[chain.MessageID]store.PendingMark, error) {
	floor := p.pendingFloor.Load()
	if floor == 0 || cm.Index < floor {
		return nil, nil
	}
	return p.st.PendingMarks(ctx, cm.Messages)
}
