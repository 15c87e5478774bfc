package ingest_test

import (
	"context"
	"math"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Pending messages estimated for milestone 4294967294 (a tip a lying node reported) are
// written estimated for the milestone after the last written, so the floor is not put
// out of reach and the pending rows are not stamped above the confirmed rows and deletes
// meant to replace them: once the milestone arrives, every table equals that of a run
// that never saw them pending.
func TestFarEstimatesDoNotOutliveTheirMilestone(t *testing.T) {
	const tip = 21
	pendingThenConfirmed(t, tip, func(s source.Source) source.Source { return farEstimates{s} },
		func(st *store.Store, id string, rec store.MessageRecord) {
			floor, err := st.PendingFloor(context.Background())
			if err != nil || rec.EstMilestoneIndex == nil || *rec.EstMilestoneIndex > tip || floor > tip {
				t.Errorf("pending %s: est %v, floor %d (%v); want both at most %d", id, rec.EstMilestoneIndex, floor, err, tip)
			}
		})
}

// farEstimates estimates every unreferenced message for milestone 4294967294.
type farEstimates struct{ source.Source }

func (f farEstimates) Unreferenced(ctx context.Context, after uint32) ([]chain.UnreferencedMessage, error) {
	msgs, err := f.Source.Unreferenced(ctx, after)
	for i := range msgs {
		msgs[i].EstMilestoneIndex = math.MaxUint32 - 1
	}
	return msgs, err
}
