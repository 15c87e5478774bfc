package adaptive

import (
	"sync"
	"time"
)

// Limiter holds the write limit a Control sets: whoever runs the writes (store.WritePool)
// keeps at most Limit of them in flight and reports each one's end with Observe. It is
// safe for concurrent use.
type Limiter struct {
	mu       sync.Mutex
	ctl      *Control
	onChange func(limit int, latency time.Duration)
	origin   time.Time // the clock of the control's samples starts here
	cap      int       // a bound above the control's limit (0: none), set by SetCap
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

// Limit is the current limit: the control's, or the cap when that is lower.
func (l *Limiter) Limit() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.limitLocked()
}

func (l *Limiter) limitLocked() int {
	if l.cap > 0 {
		return min(l.ctl.Limit(), l.cap)
	}
	return l.ctl.Limit()
}

// SetCap bounds the limit from above (0 or less: no bound), whatever the control
// measured; the control goes on learning from the writes made under the cap (windows
// that did not use half its own limit measure nothing).
func (l *Limiter) SetCap(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	before := l.limitLocked()
	l.cap = max(n, 0)
	if after := l.limitLocked(); after != before && l.onChange != nil {
		l.onChange(after, l.ctl.Latency())
	}
}

// Outcome is how a write ended, for Observe.
type Outcome int

const (
	Done       Outcome = iota // succeeded, or failed for a reason that says nothing of load
	Overloaded                // timed out, or the database shed it: the limit drops
	Ignored                   // canceled: no sample
)

// Observe reports a write's end: its latency, its size (statements), how many writes
// were in flight with it, and its outcome.
func (l *Limiter) Observe(inFlight int, latency time.Duration, work int, outcome Outcome) {
	l.mu.Lock()
	defer l.mu.Unlock()
	changed := false
	switch outcome {
	case Done:
		changed = l.ctl.Sample(time.Since(l.origin), latency, inFlight, work)
	case Overloaded:
		changed = l.ctl.Overload()
	}
	if changed && l.onChange != nil {
		l.onChange(l.limitLocked(), l.ctl.Latency())
	}
}

// Estimates are the throughputs the limiter measured per level (Control.Estimates).
func (l *Limiter) Estimates() []Estimate {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ctl.Estimates()
}
