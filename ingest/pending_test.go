package ingest_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// Pending messages estimated for milestone 4294967294 (a tip a lying node reported) are
// written estimated for the milestone after the last written, so the floor is not put
// out of reach and the pending rows are not stamped above the confirmed rows and deletes
// meant to replace them: once the milestone arrives, every table equals that of a run
// that never saw them pending.
func TestFarEstimatesDoNotOutliveTheirMilestone(t *testing.T) {
	const tip = 21
	st, cfg := newStore(t)
	clean, cleanCfg := newStore(t)
	ingestAll(t, clean, simSource(tip), tip, nil)

	sim := simSource(tip)
	pending, err := sim.Unreferenced(context.Background(), tip-1)
	if err != nil || len(pending) == 0 {
		t.Fatalf("sim has no unreferenced messages before %d: %v", tip, err)
	}
	id := pending[0].ID.String()
	m := ingest.NewMetrics(nil)
	gated := &gatedTip{Source: farEstimates{sim}, held: tip - 1, release: make(chan struct{})}
	p := ingest.New(gated, st, ingest.Config{NodeID: 1, StopAt: tip,
		Follow: true, Unreferenced: true, PollInterval: 100 * time.Millisecond}, m, nil)
	seen := make(chan uint32, 1)
	go func() {
		defer close(gated.release)
		rec := awaitPending(t, st, m, id)
		floor, err := st.PendingFloor(context.Background())
		if err != nil || rec.EstMilestoneIndex == nil || *rec.EstMilestoneIndex > tip || floor > tip {
			t.Errorf("pending %s: est %v, floor %d (%v); want both at most %d", id, rec.EstMilestoneIndex, floor, err, tip)
		}
		seen <- floor
	}()
	if err := p.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	<-seen
	got, want := firstSeenRemoved(t, st, cfg), firstSeenRemoved(t, clean, cleanCfg)
	if diff := testcontainers.DiffDumps(got, want); diff != "" {
		t.Fatalf("after confirmation, rows differ from a run that never saw them pending:\n%s", diff)
	}
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
