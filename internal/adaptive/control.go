// Package adaptive finds how many writes to keep in flight against a database whose
// speed is not known in advance: a gradient limiter (after Netflix concurrency-limits'
// Gradient2 and TCP Vegas) driven by write latency against a smoothed minimum latency,
// and by overload errors.
package adaptive

import (
	"math"
	"time"
)

// The control's constants. Latency may grow to Tolerance times the baseline before the
// limit shrinks: past the database's knee, more in flight only queues, and latency grows
// with the queue while throughput stays flat, so a limit somewhat past the knee costs
// latency, not throughput, and one below it costs throughput.
const (
	Tolerance    = 1.5  // latency / baseline ratio the limit tolerates without shrinking
	minWindow    = 16   // samples per update, at least (also the update cadence at small limits)
	baselineRise = 0.2  // how fast the baseline follows slower windows at the floor (a node that got slower)
	shrinkWeight = 0.5  // share of a computed decrease applied at once (latency is noisy)
	overloadCut  = 0.75 // multiplicative decrease on a timeout or overload error
)

// Control is the pure control logic, without locks or clocks: it is fed one completed
// write at a time and says the limit. Every Limit() samples (at least minWindow) make a
// window; at the end of each, the window's mean latency is compared with the baseline, the
// smoothed minimum of past windows' means, which stands for the latency without queueing.
// The first window runs at the floor to learn it (a baseline taken at a limit already
// past the database's knee would hide the queue); after it the limit jumps to the
// initial value. Later the baseline only falls with a faster window, and rises only
// towards windows at the floor, where latency cannot be queueing caused here (so the
// baseline does not creep up with the queue the limit itself builds):
//
//	gradient = clamp(Tolerance·baseline/mean, 0.5, 1)
//
// At 1 (latency within Tolerance of the baseline) the limit grows by √limit, below it
// shrinks by (1-gradient)·shrinkWeight of itself (at most a quarter per window): it
// settles where latency is about Tolerance times the baseline. It does not grow in a
// window that never used half of it (the writer, not the database, was the bound). An
// overload error cuts it by a quarter at once, at most once per window.
type Control struct {
	min, max float64
	limit    float64
	initial  float64 // the limit after the first window
	baseline float64 // seconds; 0 until the first window ends

	n    int     // samples in the current window
	sum  float64 // their latencies, seconds
	peak int     // the most in flight seen in the window
	cut  bool    // an overload cut already happened in this window
}

// NewControl starts at the floor for its first window, then at initial; the limit stays
// within [floor, ceiling] (floor at least 1).
func NewControl(initial, floor, ceiling int) *Control {
	floor = max(floor, 1)
	ceiling = max(ceiling, floor)
	lo, hi := float64(floor), float64(ceiling)
	return &Control{min: lo, max: hi, limit: lo, initial: clamp(float64(initial), lo, hi)}
}

// Limit is the number of writes to keep in flight.
func (c *Control) Limit() int { return int(c.limit) }

// Baseline is the smoothed minimum latency (0 before the first window ends).
func (c *Control) Baseline() time.Duration { return time.Duration(c.baseline * float64(time.Second)) }

// Sample records one write that succeeded (or failed for a reason that is not the
// database's load) after latency, with inFlight writes in flight when it started (itself
// included). It reports whether the limit changed.
func (c *Control) Sample(latency time.Duration, inFlight int) bool {
	c.n++
	c.sum += latency.Seconds()
	c.peak = max(c.peak, inFlight)
	if c.n < max(c.Limit(), minWindow) {
		return false
	}
	return c.endWindow()
}

// Overload records a write that timed out or that the database refused as overloaded:
// the limit drops by a quarter (once per window, so that a burst of errors from one
// overload is one cut). It reports whether the limit changed.
func (c *Control) Overload() bool {
	if c.cut {
		return false
	}
	c.cut = true
	return c.set(c.limit * overloadCut)
}

func (c *Control) endWindow() bool {
	mean, peak := c.sum/float64(c.n), c.peak
	c.n, c.sum, c.peak, c.cut = 0, 0, 0, false
	switch {
	case c.baseline == 0:
		c.baseline = mean
		return c.set(c.initial)
	case mean < c.baseline:
		c.baseline = mean
	case c.Limit() <= int(c.min):
		c.baseline += (mean - c.baseline) * baselineRise
	}
	gradient := clamp(Tolerance*c.baseline/mean, 0.5, 1)
	switch {
	case gradient < 1:
		return c.set(c.limit - c.limit*(1-gradient)*shrinkWeight)
	case float64(peak) < c.limit/2:
		return false // app-limited: the latency says nothing about a higher limit
	}
	return c.set(c.limit + math.Sqrt(c.limit))
}

func (c *Control) set(limit float64) bool {
	before := c.Limit()
	c.limit = clamp(limit, c.min, c.max)
	return c.Limit() != before
}

func clamp(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }
