package node

import (
	"context"
	"sync"
	"time"

	"github.com/stardust-indexer/stardust-indexer/internal/adaptive"
)

// Where the requests-in-flight limit of a node starts, and its floor: it then moves
// between the floor and Config.Concurrency (the ceiling) to where the node's answers per
// second stop growing, and steps down on 429s, 5xx, timeouts and lost connections
// (package adaptive, the controller the writes use).
const (
	startInFlight = 16
	floorInFlight = 4
)

// inFlight admits requests to one node up to a limit that an adaptive.Limiter sets from
// the answers it observes. Waiters are admitted first come, first served.
type inFlight struct {
	lim *adaptive.Limiter

	mu      sync.Mutex
	n       int
	waiters []chan struct{}
}

func newInFlight(ceiling int) *inFlight {
	start := min(startInFlight, ceiling)
	return &inFlight{lim: adaptive.NewLimiter(start, min(floorInFlight, ceiling), ceiling, nil)}
}

// acquire waits for a slot; it returns how many requests are in flight with this one.
func (f *inFlight) acquire(ctx context.Context) (int, error) {
	f.mu.Lock()
	if f.n < f.lim.Limit() && len(f.waiters) == 0 {
		f.n++
		n := f.n
		f.mu.Unlock()
		return n, nil
	}
	ready := make(chan struct{})
	f.waiters = append(f.waiters, ready)
	f.mu.Unlock()
	select {
	case <-ready:
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.n, nil
	case <-ctx.Done():
		f.mu.Lock()
		defer f.mu.Unlock()
		select {
		case <-ready: // admitted meanwhile: hand the slot back
			f.n--
			f.admit()
		default:
			f.drop(ready)
		}
		return 0, ctx.Err()
	}
}

// release frees a slot and reports how the request went: its round trip (0 for an
// outcome that says nothing of the node's load) and the outcome.
func (f *inFlight) release(inFlight int, latency time.Duration, outcome adaptive.Outcome) {
	f.lim.Observe(inFlight, latency, 1, outcome)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n--
	f.admit()
}

// admit lets waiters in while the limit allows, under f.mu.
func (f *inFlight) admit() {
	for len(f.waiters) > 0 && f.n < f.lim.Limit() {
		f.n++
		close(f.waiters[0])
		f.waiters = f.waiters[1:]
	}
}

func (f *inFlight) drop(ready chan struct{}) {
	for i, w := range f.waiters {
		if w == ready {
			f.waiters = append(f.waiters[:i], f.waiters[i+1:]...)
			return
		}
	}
}

// queued tells whether requests wait for a slot: the demand is above the limit.
func (f *inFlight) queued() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.waiters) > 0
}

// limit is the current limit.
func (f *inFlight) limit() int { return f.lim.Limit() }
