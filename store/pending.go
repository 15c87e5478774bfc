package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
)

// pendingFloorConcern is the indexer_meta row holding the lowest estimated milestone any
// unreferenced message was written for: only milestones from there on can reference a
// message with pending rows.
const pendingFloorConcern = "pending_floor"

// PendingFloor reads the lowest estimated milestone any unreferenced message was written
// for; 0 when none was.
func (st *Store) PendingFloor(ctx context.Context) (uint32, error) {
	_, w, _, err := st.Meta(ctx, pendingFloorConcern)
	if errors.Is(err, ErrNotFound) {
		return 0, nil
	}
	return uint32(w), err
}

// LowerPendingFloor records est as the floor unless the recorded one is lower already:
// a floor is only ever lowered, by conditional writes, so nodes writing pending rows at
// once each leave it at or below their own estimate. Call it before writing pending rows
// estimated below the floor.
func (st *Store) LowerPendingFloor(ctx context.Context, est uint32, node string) error {
	value := strconv.FormatUint(uint64(est), 10)
	applied, _, err := st.s.CAS(ctx, cql.InitMeta, pendingFloorConcern, value, int64(est), node)
	if err != nil || applied {
		return err
	}
	if _, _, err := st.s.CAS(ctx, cql.LowerMeta, int64(est), value, node, pendingFloorConcern, int64(est)); err != nil {
		return fmt.Errorf("lowering the pending floor to %d: %w", est, err)
	}
	return nil
}

// PendingMark is what was written for a message while it was unreferenced: its pending
// rows are keyed by it, so they can be deleted once a milestone references it.
type PendingMark struct {
	Est    uint32
	SeenAt time.Time
}

// PendingMarks reads, for the messages a milestone referenced, the marks of those that
// were written as unreferenced.
func (st *Store) PendingMarks(ctx context.Context, msgs []chain.ReferencedMessage) (map[chain.MessageID]PendingMark, error) {
	marks := map[chain.MessageID]PendingMark{}
	for i := range msgs {
		id := msgs[i].ID
		var m MessageRecord
		err := notFound(cql.GetRecord(ctx, st.s, cql.MessagePending, []any{id.String()}, &m))
		switch {
		case errors.Is(err, ErrNotFound):
			continue
		case err != nil:
			return nil, err
		case m.EstMilestoneIndex != nil && m.SeenAt != nil:
			marks[id] = PendingMark{Est: uint32(*m.EstMilestoneIndex), SeenAt: *m.SeenAt}
		}
	}
	return marks, nil
}
