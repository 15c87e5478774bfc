package ingest

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// pendingFloorConcern is the indexer_meta row holding the lowest estimated milestone any
// unreferenced message was written for. Only milestones from there on can reference a
// message with pending rows, so a backfill of older milestones never pays the reads.
const pendingFloorConcern = "pending_floor"

func (p *Pipeline) loadPendingFloor(ctx context.Context) error {
	_, w, _, err := store.Meta(ctx, p.st.S, pendingFloorConcern)
	if errors.Is(err, gocql.ErrNotFound) {
		return nil
	}
	if err == nil {
		p.pendingFloor.Store(uint32(w))
	}
	return err
}

// notePending records the floor before the first pending rows are written (a floor is
// never raised: the init only applies once).
func (p *Pipeline) notePending(ctx context.Context, est uint32) error {
	if f := p.pendingFloor.Load(); f != 0 && f <= est {
		return nil
	}
	if _, _, err := p.st.S.CAS(ctx, cql.InitMeta, pendingFloorConcern, strconv.Itoa(int(est)), int64(est), p.node()); err != nil {
		return err
	}
	return p.loadPendingFloor(ctx)
}

// pendingMarks reads, for the messages of cm, which were written as unreferenced.
func (p *Pipeline) pendingMarks(ctx context.Context, cm *chain.ConfirmedMilestone) (map[chain.MessageID]pendingMark, error) {
	floor := p.pendingFloor.Load()
	if floor == 0 || cm.Index < floor {
		return nil, nil
	}
	marks := map[chain.MessageID]pendingMark{}
	for i := range cm.Messages {
		id := cm.Messages[i].ID
		var est *int32
		var seen *time.Time
		err := p.st.S.Scan(ctx, cql.MessagePending, []any{id.String()}, &est, &seen)
		if errors.Is(err, gocql.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if est != nil && seen != nil {
			marks[id] = pendingMark{est: uint32(*est), seenAt: *seen}
		}
	}
	return marks, nil
}
