package store

import (
	"context"
	"sync"
	"time"

	"github.com/stardust-indexer/stardust-indexer/internal/adaptive"
)

// WritePool runs the write groups of any number of Apply calls at once on at most its
// limiter's limit of goroutines. A goroutine takes the next group of the oldest call that
// has one left, and goes on with the next when it is done, until none is left or the limit
// dropped below the goroutines running; more start when a call comes or the limit rises.
// So a write's end starts the next write on the same goroutine, with no goroutine started
// and no dispatcher woken per write: either costs writes per second against a plain pool
// of as many goroutines (docs/decisions/001-adaptive-write-limit.md).
type WritePool struct {
	lim *adaptive.Limiter
	run func(context.Context, []Write) error // one group: a statement or a batch

	mu      sync.Mutex
	queue   []*applyCall // oldest first
	running int          // goroutines
	writing int          // groups handed out and not done (a goroutine may outlive its last one briefly)
}

// applyCall is one Apply: its groups, how far they are handed out and done, and its end.
type applyCall struct {
	ctx      context.Context
	cancel   context.CancelFunc
	groups   [][]Write
	next     int // the next group to hand out
	inFlight int // groups handed out and not done
	err      error
	done     chan struct{}
	closed   bool
}

// NewWritePool is a pool writing to st, as many groups in flight as lim allows (lim may
// be shared with other pools: each keeps to its limit on its own).
func (st *Store) NewWritePool(lim *adaptive.Limiter) *WritePool {
	return &WritePool{lim: lim, run: st.applyGroup}
}

// Apply runs the writes (grouped as groupWrites does) and returns the first error, after
// which none of the call's groups is started and the running ones are canceled. It
// returns when none of its groups runs any more. Every write is idempotent, so a failed
// Apply can be retried whole.
func (p *WritePool) Apply(parent context.Context, writes []Write) error {
	groups := groupWrites(writes)
	if len(groups) == 0 {
		return parent.Err()
	}
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	c := &applyCall{ctx: ctx, cancel: cancel, groups: groups, done: make(chan struct{})}
	p.mu.Lock()
	p.queue = append(p.queue, c)
	n := p.growLocked()
	p.mu.Unlock()
	p.start(n)
	select {
	case <-c.done:
	case <-ctx.Done(): // parent ended, or a group failed
		p.mu.Lock()
		c.stopLocked()
		p.mu.Unlock()
		<-c.done
	}
	if c.err != nil {
		return c.err
	}
	return parent.Err() // not every group ran if parent ended
}

// InFlight is the groups being written now (at most the limit, but for the moment a
// lowered limit takes to reach them). Once every Apply returned it is 0, while a goroutine
// that wrote the last group may not have ended yet.
func (p *WritePool) InFlight() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.writing
}

// growLocked counts the goroutines to start: up to the limit, no more than the groups
// waiting. Every write's end calls it: the queue is summed only when the limit has room.
func (p *WritePool) growLocked() int {
	room := p.lim.Limit() - p.running
	if room <= 0 {
		return 0
	}
	waiting := 0
	for _, c := range p.queue {
		waiting += len(c.groups) - c.next
	}
	n := min(room, waiting)
	p.running += n
	return n
}

func (p *WritePool) start(n int) {
	for range n {
		go p.work()
	}
}

// work runs groups until take says stop.
func (p *WritePool) work() {
	for {
		c, group, inFlight, ok := p.take()
		if !ok {
			return
		}
		start := time.Now()
		err := p.run(c.ctx, group)
		p.lim.Observe(inFlight, time.Since(start), len(group), outcome(err))
		p.finish(c, err)
	}
}

// take hands out the oldest call's next group, or tells the goroutine to end (counting it
// out) when the limit dropped below the goroutines running or no group is left.
func (p *WritePool) take() (c *applyCall, group []Write, inFlight int, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.running <= p.lim.Limit() && len(p.queue) > 0 {
		c = p.queue[0]
		if c.ctx.Err() != nil {
			c.stopLocked()
		}
		if c.next < len(c.groups) {
			group = c.groups[c.next]
			c.next++
			c.inFlight++
			p.writing++
			return c, group, p.running, true
		}
		p.queue[0] = nil
		p.queue = p.queue[1:]
	}
	p.running--
	return nil, nil, 0, false
}

// finish records a group's end: the call's first error stops it; the call is done when
// every group it handed out is; a raised limit starts more goroutines.
func (p *WritePool) finish(c *applyCall, err error) {
	p.mu.Lock()
	c.inFlight--
	p.writing--
	if err != nil && c.err == nil {
		c.err = err
		c.cancel()
		c.stopLocked()
	}
	c.closeIfDoneLocked()
	n := p.growLocked()
	p.mu.Unlock()
	p.start(n)
}

// stopLocked hands out none of the call's groups any more.
func (c *applyCall) stopLocked() {
	c.next = len(c.groups)
	c.closeIfDoneLocked()
}

func (c *applyCall) closeIfDoneLocked() {
	if !c.closed && c.next == len(c.groups) && c.inFlight == 0 {
		c.closed = true
		close(c.done)
	}
}
