package ingest_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// A stop mid-ingest (SIGTERM cancels the context) lets the milestones being written
// finish: every milestone with any message row has its sync row, none is left half
// written until the next start.
func TestStopLeavesNoPartialMilestone(t *testing.T) {
	st, _ := newStoreOrSkip(t)
	const tip = 300
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := ingest.New(simSource(tip), st, ingest.Config{NodeID: 1, StopAt: tip, Window: 32}, nil, nil)
	stopped := make(chan error, 1)
	go func() { stopped <- p.Run(ctx) }()
	for p.Written() < 40 {
		select {
		case err := <-stopped:
			t.Fatalf("the pipeline ended before the stop: %v", err)
		case <-time.After(5 * time.Millisecond):
		}
	}
	cancel()
	if err := <-stopped; err != nil && !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	synced, err := st.Synced(context.Background(), 1, tip)
	if err != nil {
		t.Fatal(err)
	}
	if len(synced) >= tip {
		t.Fatalf("all %d milestones synced before the stop took effect: the test proves nothing", tip)
	}
	partial := 0
	for i := uint32(1); i <= tip; i++ {
		if _, ok := synced[i]; !ok && (countMessagesOf(t, st, i) > 0 || milestoneRow(t, st, i)) {
			partial++
		}
	}
	if partial > 0 {
		t.Fatalf("%d milestones left with rows but no sync row after the stop (%d synced)", partial, len(synced))
	}
}

func milestoneRow(t *testing.T, st *store.Store, index uint32) bool {
	t.Helper()
	_, err := st.Milestone(context.Background(), index)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		t.Fatal(err)
	}
	return err == nil
}
