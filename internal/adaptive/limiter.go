package adaptive

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Limiter is a semaphore whose size a Control sets: Acquire before a write, Release
// after it with its latency. It is safe for concurrent use; waiters are served in order.
type Limiter struct {
	mu       sync.Mutex
	ctl      *Control
	inFlight int
	waiters  []chan struct{}
	onChange func(limit int, latency time.Duration)
	origin   time.Time // the clock of the control's samples starts here
}

// NewLimiter starts at initial writes in flight, within [floor, ceiling]. onChange, if
// not nil, is called (under the limiter's lock: keep it short) with every new limit.
func NewLimiter(initial, floor, ceiling int, onChange func(limit int, latency time.Duration)) *Limiter {
	l := &Limiter{ctl: NewControl(initial, floor, ceiling), onChange: onChange, origin: time.Now()}
	if onChange != nil {
		onChange(l.ctl.Limit(), 0)
	}
	return l
}

// Fixed is a limiter that never moves: n in flight.
func Fixed(n int) *Limiter { return NewLimiter(n, n, n, nil) }

// Limit is the current limit.
func (l *Limiter) Limit() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ctl.Limit()
}

// InFlight is how many slots are taken now.
func (l *Limiter) InFlight() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.inFlight
}

// Acquire waits for a slot, or for ctx to end. It returns how many writes are in flight
// with this one (for Release).
func (l *Limiter) Acquire(ctx context.Context) (inFlight int, err error) {
	l.mu.Lock()
	if l.inFlight < l.ctl.Limit() && len(l.waiters) == 0 {
		l.inFlight++
		n := l.inFlight
		l.mu.Unlock()
		return n, nil
	}
	ready := make(chan struct{})
	l.waiters = append(l.waiters, ready)
	l.mu.Unlock()
	select {
	case <-ready:
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.inFlight, nil
	case <-ctx.Done():
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if i := slices.Index(l.waiters, ready); i >= 0 {
		l.waiters = slices.Delete(l.waiters, i, i+1)
		return 0, ctx.Err()
	}
	l.inFlight-- // granted meanwhile: give it back
	l.wake()
	return 0, ctx.Err()
}

// Outcome is how a write ended, for Release.
type Outcome int

const (
	Done       Outcome = iota // succeeded, or failed for a reason that says nothing of load
	Overloaded                // timed out, or the database shed it: the limit drops
	Ignored                   // canceled: no sample
)

// Release returns a slot taken by Acquire, with the write's latency, size (statements)
// and outcome.
func (l *Limiter) Release(inFlight int, latency time.Duration, work int, outcome Outcome) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inFlight--
	changed := false
	switch outcome {
	case Done:
		changed = l.ctl.Sample(time.Since(l.origin), latency, inFlight, work)
	case Overloaded:
		changed = l.ctl.Overload()
	}
	if changed && l.onChange != nil {
		l.onChange(l.ctl.Limit(), l.ctl.Latency())
	}
	l.wake()
}

// wake grants slots to waiters, oldest first, while the limit allows.
func (l *Limiter) wake() {
	for len(l.waiters) > 0 && l.inFlight < l.ctl.Limit() {
		l.inFlight++
		close(l.waiters[0])
		l.waiters = l.waiters[1:]
	}
}

// Estimates are the throughputs the limiter measured per level (Control.Estimates).
func (l *Limiter) Estimates() []Estimate {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ctl.Estimates()
}
