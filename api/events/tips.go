package events

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// tipPoll is how often the tip watch reads the ledger index while streams wait on it.
const tipPoll = 250 * time.Millisecond

// tipWatch follows the ledger index for every live stream at once: one poller reads it
// while any stream waits, and wakes them all when it moves.
type tipWatch struct {
	read    func(ctx context.Context) (store.LedgerIndex, error)
	mu      sync.Mutex
	tip     uint32
	moved   chan struct{} // closed when tip moves
	waiters int
	polling bool
}

func newTipWatch(read func(ctx context.Context) (store.LedgerIndex, error)) *tipWatch {
	return &tipWatch{read: read, moved: make(chan struct{})}
}

// wait returns the ledger index once it is past after, or after at most d (then
// possibly still after), or when ctx ends.
func (t *tipWatch) wait(ctx context.Context, after uint32, d time.Duration) (uint32, error) {
	t.mu.Lock()
	if t.tip > after {
		defer t.mu.Unlock()
		return t.tip, nil
	}
	moved := t.moved
	t.waiters++
	if !t.polling {
		t.polling = true
		go t.poll()
	}
	t.mu.Unlock()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-moved:
	case <-timer.C:
	case <-ctx.Done():
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.waiters--
	return t.tip, ctx.Err()
}

// poll reads the ledger index every tipPoll while a stream waits.
func (t *tipWatch) poll() {
	for {
		time.Sleep(tipPoll)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		li, err := t.read(ctx)
		cancel()
		if err != nil && !errors.Is(err, store.ErrNothingSynced) {
			slog.Warn("event streams: reading the ledger index (tried again)", "error", err)
		}
		t.mu.Lock()
		if err == nil && li.Index > t.tip {
			t.tip = li.Index
			close(t.moved)
			t.moved = make(chan struct{})
		}
		if t.waiters == 0 {
			t.polling = false
			t.mu.Unlock()
			return
		}
		t.mu.Unlock()
	}
}
