package rest

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// TipPoll is how often the tip watch reads the ledger index while anyone waits on it.
const TipPoll = 250 * time.Millisecond

// TipWatch follows the ledger index for every live follower of a server at once (the
// event streams, the TIP-28 broker): one poller reads it while any of them waits, and
// wakes them all when it moves.
type TipWatch struct {
	read    func(ctx context.Context) (store.LedgerIndex, error)
	mu      sync.Mutex
	tip     uint32
	moved   chan struct{} // closed when tip moves
	waiters int
	polling bool
	stopped bool // Stop was called: no more reads
}

// NewTipWatch is a watch over read, the store's ledger index.
func NewTipWatch(read func(ctx context.Context) (store.LedgerIndex, error)) *TipWatch {
	return &TipWatch{read: read, moved: make(chan struct{})}
}

// Wait returns the ledger index once it is past after, or after at most d (then
// possibly still after), or when ctx ends.
func (t *TipWatch) Wait(ctx context.Context, after uint32, d time.Duration) (uint32, error) {
	t.mu.Lock()
	if t.tip > after {
		defer t.mu.Unlock()
		return t.tip, nil
	}
	moved := t.moved
	t.waiters++
	if !t.polling && !t.stopped {
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

// tipIdlePolls is how many polls in a row find no one waiting before the poller stops:
// followers are away between waits while they send what the last move woke them for,
// and a poller that stopped then would start again a whole TipPoll after their return,
// off its beat.
const tipIdlePolls = 4

// poll reads the ledger index every TipPoll while anyone waits, on a steady beat (a
// ticker, whatever a read takes), until tipIdlePolls polls in a row find no one waiting.
func (t *TipWatch) poll() {
	tick := time.NewTicker(TipPoll)
	defer tick.Stop()
	for idle := 0; idle < tipIdlePolls; {
		<-tick.C
		if t.isStopped() {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		li, err := t.read(ctx)
		cancel()
		if err != nil && !errors.Is(err, store.ErrNothingSynced) {
			slog.Warn("live followers: reading the ledger index (tried again)", "error", err)
		}
		t.mu.Lock()
		if err == nil && li.Index > t.tip {
			t.tip = li.Index
			close(t.moved)
			t.moved = make(chan struct{})
		}
		if idle++; t.waiters > 0 {
			idle = 0
		}
		t.polling = idle < tipIdlePolls
		t.mu.Unlock()
	}
}

// Stop ends the polling for good, before the store's session closes: a server that
// shuts down reads no more. Waiters then wake only by their own time or context.
func (t *TipWatch) Stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stopped = true
}

func (t *TipWatch) isStopped() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.stopped
}
