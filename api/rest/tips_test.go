package rest

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// The tip watch wakes a waiter when the ledger index moves, keeps polling while a
// follower is briefly away, and stops once four polls in a row find no one waiting;
// once stopped for good (the server closes), it reads no more.
func TestTipWatch(t *testing.T) {
	var index, reads atomic.Uint32
	index.Store(5)
	w := NewTipWatch(func(context.Context) (store.LedgerIndex, error) {
		reads.Add(1)
		return store.LedgerIndex{Index: index.Load()}, nil
	})
	ctx := context.Background()
	if tip, err := w.Wait(ctx, 0, 5*time.Second); err != nil || tip != 5 {
		t.Fatalf("first wait: %d, %v; want 5", tip, err)
	}
	go func() { time.Sleep(3 * TipPoll); index.Store(6) }()
	if tip, err := w.Wait(ctx, 5, 5*time.Second); err != nil || tip != 6 {
		t.Fatalf("wait past 5: %d, %v; want 6", tip, err)
	}
	time.Sleep(3 * TipPoll / 2) // away past the next poll, well short of four: the beat goes on
	if !w.isPolling() {
		t.Fatal("the poller stopped at the first poll that found no one waiting")
	}
	time.Sleep((tipIdlePolls + 2) * TipPoll)
	if w.isPolling() {
		t.Fatal("the poller still runs with no one waiting")
	}
	n := reads.Load()
	time.Sleep(2 * TipPoll)
	if reads.Load() != n {
		t.Errorf("%d reads after the poller stopped", reads.Load()-n)
	}
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := w.Wait(gone, 6, time.Minute); err == nil {
		t.Error("a canceled wait returned no error")
	}
	w.Stop()
	n = reads.Load()
	index.Store(7)
	if tip, _ := w.Wait(ctx, 6, 3*TipPoll); tip != 6 || reads.Load() != n {
		t.Errorf("after Stop: woke at %d with %d more reads, want no read", tip, reads.Load()-n)
	}
}

func (t *TipWatch) isPolling() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.polling
}
