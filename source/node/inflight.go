package node

import (
	"container/heap"
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
// the answers it observes. Waiters are admitted lowest milestone first (see
// withMilestone), then first come, first served: the milestone an asker waits for goes
// before those read ahead of it, which use what capacity is left.
type inFlight struct {
	lim *adaptive.Limiter

	mu      sync.Mutex
	n       int
	seq     uint64
	waiters waitQueue
}

// waiter is a request waiting for a slot.
type waiter struct {
	milestone uint32
	seq       uint64
	ready     chan struct{}
}

// waitQueue is a heap of waiters, lowest milestone then earliest first.
type waitQueue []*waiter

func (q waitQueue) Len() int { return len(q) }
func (q waitQueue) Less(i, j int) bool {
	if q[i].milestone != q[j].milestone {
		return q[i].milestone < q[j].milestone
	}
	return q[i].seq < q[j].seq
}
func (q waitQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *waitQueue) Push(x any)   { *q = append(*q, x.(*waiter)) }
func (q *waitQueue) Pop() any {
	old := *q
	w := old[len(old)-1]
	*q = old[:len(old)-1]
	return w
}

// milestoneKey carries the milestone a request is for in its context.
type milestoneKey struct{}

// withMilestone marks the requests made with ctx as reading milestone index: they wait
// for a slot behind those of lower milestones. Requests without a mark (status, network)
// go first.
func withMilestone(ctx context.Context, index uint32) context.Context {
	return context.WithValue(ctx, milestoneKey{}, index)
}

func milestoneOf(ctx context.Context) uint32 {
	index, _ := ctx.Value(milestoneKey{}).(uint32)
	return index
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
	f.seq++
	w := &waiter{milestone: milestoneOf(ctx), seq: f.seq, ready: make(chan struct{})}
	heap.Push(&f.waiters, w)
	f.mu.Unlock()
	select {
	case <-w.ready:
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.n, nil
	case <-ctx.Done():
		f.mu.Lock()
		defer f.mu.Unlock()
		select {
		case <-w.ready: // admitted meanwhile: hand the slot back
			f.n--
			f.admit()
		default:
			f.drop(w)
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
		close(heap.Pop(&f.waiters).(*waiter).ready)
	}
}

func (f *inFlight) drop(w *waiter) {
	for i, o := range f.waiters {
		if o == w {
			heap.Remove(&f.waiters, i)
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
