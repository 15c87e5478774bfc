package store

import (
	"context"
	"errors"
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

// InitPendingFloor records est as the floor unless one is recorded already: a floor is
// never raised. Call it before writing the first pending rows.
func (st *Store) InitPendingFloor(ctx context.Context, est uint32, node string) error {
	_, _, err := st.s.CAS(ctx, cql.InitMeta, pendingFloorConcern, strconv.Itoa(int(est)), int64(est), node)
	return err
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
		err := notFound(st.s.Scan(ctx, cql.MessagePending, []any{id.String()}, dests(cql.MessagePending, &m)...))
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
