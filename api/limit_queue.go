package api

import (
	"container/list"
	"context"
	"math"
	"net/netip"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/stardust-indexer/stardust-indexer/internal/wait"
)

// slots counts requests in flight against a limit, and queues, first come first served,
// at most queue requests waiting for one (all under the limiter's mu).
type slots struct {
	limit   int // 0: no limit
	queue   int // waiters allowed; 0: none
	used    int
	waiters list.List // of *waiter
	// standing, when set, shortens the wait of requests that join a queue that has not
	// been empty for standingAfter (see standingWait).
	standing  bool
	busySince time.Time // when the queue last went from empty to not; zero while empty
}

// A queue that has not emptied for standingAfter is standing: the server, not a burst,
// is what it waits for, and waiting longer only adds latency before the same refusal.
// Requests joining a standing queue wait at most standingWait (controlled delay, as in
// CoDel). The global queue is so controlled; a client's queue is not, since a wallet's
// batch legitimately keeps it full for seconds.
const (
	standingAfter = 100 * time.Millisecond
	standingWait  = 10 * time.Millisecond
)

// waitFor is how long a request joining the queue now may wait, given wait.
func (s *slots) waitFor(wait time.Duration, now time.Time) time.Duration {
	if s.standing && s.waiters.Len() > 0 && now.Sub(s.busySince) > standingAfter {
		return min(wait, standingWait)
	}
	return wait
}

// waiter is a request waiting for a slot: granted (under mu) when a release hands it the
// slot, and ready closed then.
type waiter struct {
	ready   chan struct{}
	granted bool
}

// tryTake takes a slot when one is free.
func (s *slots) tryTake() bool {
	if s.limit > 0 && s.used >= s.limit {
		return false
	}
	s.used++
	return true
}

// enqueue adds a waiter, or says the queue is full.
func (s *slots) enqueue(now time.Time) (*waiter, *list.Element, bool) {
	if s.waiters.Len() >= s.queue {
		return nil, nil, false
	}
	if s.waiters.Len() == 0 {
		s.busySince = now
	}
	w := &waiter{ready: make(chan struct{})}
	return w, s.waiters.PushBack(w), true
}

// remove takes e out of the queue.
func (s *slots) remove(e *list.Element) *waiter {
	w := s.waiters.Remove(e).(*waiter)
	if s.waiters.Len() == 0 {
		s.busySince = time.Time{}
	}
	return w
}

// release frees a slot, handing it to the longest waiter when there is one.
func (s *slots) release() {
	if e := s.waiters.Front(); e != nil {
		w := s.remove(e)
		w.granted = true
		close(w.ready)
		return
	}
	s.used--
}

// take takes a slot of s, waiting in its queue up to wait (or until ctx ends) when none
// is free; it says whether it got one.
func (l *limiter) take(ctx context.Context, s *slots, wait time.Duration) bool {
	l.mu.Lock()
	if s.tryTake() {
		l.mu.Unlock()
		return true
	}
	now := l.now()
	if wait = s.waitFor(wait, now); wait <= 0 {
		l.mu.Unlock()
		return false
	}
	w, e, ok := s.enqueue(now)
	l.mu.Unlock()
	if !ok {
		return false
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-w.ready:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.leave(s, w, e)
}

// leave takes w out of s's queue; when a release granted it the slot meanwhile, w keeps
// it (true) (under mu).
func (l *limiter) leave(s *slots, w *waiter, e *list.Element) bool {
	if w.granted {
		return true
	}
	s.remove(e)
	return false
}

// acquire is admit for a request whose client never leaves (a context that never ends):
// without queues configured it decides at once.
func (l *limiter) acquire(id netip.Addr) (release func(), refused *refusal) {
	return l.admit(context.Background(), id)
}

// admit admits a request of client id, or says why not. A request over its client's
// rate or in-flight cap waits in the client's queue (at most ClientQueue of them, each
// at most QueueWait) for its token and its slot; one over MaxInFlight then waits in the
// global queue (GlobalQueue, GlobalQueueWait). An admitted request must call release
// when it is done (once is enough; later calls do nothing).
func (l *limiter) admit(ctx context.Context, id netip.Addr) (release func(), refused *refusal) {
	start := l.now()
	l.mu.Lock()
	states := l.entries(id, start)
	if states == nil {
		l.mu.Unlock()
		return nil, &refusal{reason: reasonClients, retryAfter: 1}
	}
	c := states[0]
	delay, ref := l.reserve(c, states, start)
	if ref != nil {
		l.mu.Unlock()
		return nil, ref
	}
	c.waiting++
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		c.waiting--
		l.mu.Unlock()
	}()
	if delay > 0 && wait.Sleep(ctx, delay) != nil {
		return nil, &refusal{reason: reasonGone}
	}
	if !l.take(ctx, &c.slots, l.cfg.QueueWait-delay) {
		return nil, l.afterWait(ctx, reasonClientInFlight)
	}
	if !l.take(ctx, &l.global, l.cfg.GlobalQueueWait) {
		l.mu.Lock()
		c.slots.release()
		l.mu.Unlock()
		return nil, l.afterWait(ctx, reasonInFlight)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			c.slots.release()
			l.global.release()
			l.mu.Unlock()
		})
	}, nil
}

// reserve takes the request's token from the client's bucket (and its site's) and says
// how long the request must wait for it, or refuses it: when the wait is past QueueWait,
// or the client's queue is full and it would have to wait (for its token or its slot)
// (under mu).
func (l *limiter) reserve(c *clientState, states []*clientState, now time.Time) (time.Duration, *refusal) {
	var delay time.Duration
	var taken []*rate.Reservation
	cancel := func() {
		for _, r := range taken {
			r.CancelAt(now)
		}
	}
	for _, s := range states {
		if s.bucket == nil {
			continue
		}
		r := s.bucket.ReserveN(now, 1)
		if !r.OK() {
			cancel()
			return 0, l.tarpit(c, &refusal{reason: reasonRate, retryAfter: 1})
		}
		taken = append(taken, r)
		delay = max(delay, r.DelayFrom(now))
	}
	queueFull := c.waiting >= l.cfg.ClientQueue
	if delay > 0 && (queueFull || delay > l.cfg.QueueWait) {
		cancel()
		return 0, l.tarpit(c, &refusal{reason: reasonRate, retryAfter: max(1, int(math.Ceil(delay.Seconds())))})
	}
	if queueFull && c.slots.limit > 0 && c.slots.used >= c.slots.limit {
		cancel()
		return 0, l.tarpit(c, &refusal{reason: reasonClientInFlight, retryAfter: 1})
	}
	return delay, nil
}

// afterWait is the refusal of a request that waited in vain (or whose client left): not
// held by the tarpit, the wait having held it already.
func (l *limiter) afterWait(ctx context.Context, reason string) *refusal {
	if ctx.Err() != nil {
		return &refusal{reason: reasonGone}
	}
	return &refusal{reason: reason, retryAfter: 1}
}

// tarpit holds ref, a refusal of c over its own limits, when the holds allow (under mu).
func (l *limiter) tarpit(c *clientState, ref *refusal) *refusal {
	if l.cfg.Tarpit <= 0 {
		return ref
	}
	if c.held >= maxHeldPerClient || l.held >= maxHeld {
		ref.close = true
		return ref
	}
	c.held++
	l.held++
	ref.hold = l.cfg.Tarpit
	var once sync.Once
	ref.unhold = func() {
		once.Do(func() {
			l.mu.Lock()
			c.held--
			l.held--
			l.mu.Unlock()
		})
	}
	return ref
}

// refusal says why a request was refused and how long to wait before the next.
type refusal struct {
	reason     string
	retryAfter int // seconds, at least 1
	// hold is how long to hold the refusal before sending it (then call unhold); 0:
	// send it at once, and close the connection when close says so.
	hold   time.Duration
	unhold func()
	close  bool
}
