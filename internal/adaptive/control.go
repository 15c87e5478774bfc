// Package adaptive finds how many writes to keep in flight against a database whose
// speed is not known in advance. It measures the throughput each concurrency level gives
// (the statements completed over a window of writes ÷ the window's wall time) and climbs
// to the lowest level that gives the most, the database's knee; overload errors push it
// down at once.
//
// It does not defend latency (a latency-gradient limiter such as Vegas or Gradient2): on a
// node that shares its CPUs, latency keeps rising with the writes in flight while
// throughput still rises too, so such a limiter gives throughput away.
//
// It does not estimate throughput by Little's law (writes in flight ÷ latency): a write's
// latency and the time it holds its slot differ by a scheduling gap that grows with the
// goroutines waiting for CPU, so the estimate reads high, unevenly across levels, and
// compares levels on figures that are not alike. The measurements behind both rules:
// docs/decisions/001-adaptive-write-limit.md.
package adaptive

import (
	"math"
	"time"
)

// The control's constants.
const (
	minWindow  = 128                    // samples per window, at least; else 4 per level
	minSpan    = 100 * time.Millisecond // a window lasts at least this: a writer's bursts (a milestone's writes) average out
	smoothing  = 0.3                    // weight of a new window in a level's throughput estimate
	flatMargin = 0.01                   // a lower level within this share of the best is as good (less queue); more, and noise walks the limit down
	probeEvery = 16                     // windows at one level before a neighbour is measured again
	arrival    = 0.5                    // weight of the first window after a move in its level's estimate: a level left long ago has an old one
	hold       = 0.03                   // the current level stays while within this share of its neighbours' best: a move costs
	climbLoss  = 0.10                   // a level lost when it measured this much less than the best below it (lost)
	recheck    = 2                      // windows at one level before a level above it, measured only once, is measured again
	warmup     = 2                      // first windows that measure nothing: the writer's start (statements prepared, connections opened)
)

// Control is the pure control logic, without locks or clocks: it is fed one completed
// write at a time and says the limit. The limit moves on a ladder of levels √2 apart
// between floor and ceiling. Every window (4·limit samples, at least minWindow, and at
// least minSpan long) yields the window's throughput: the statements its writes carried
// ÷ the time from the end of the window before to its last write's end. That updates
// the current level's estimate (the mean of its first windows, then an exponential
// average). Then the limit moves one level: up while the level above is unmeasured and
// not both this level and the one below lost to a lower one (lost); up again after
// recheck windows when the level above was measured in one window only; else it stays
// while the current level's estimate is within hold of the best of it and its two
// neighbours (but goes down to a level below that measured as much), and otherwise goes
// to the lowest of the three whose estimate is within flatMargin of their best. Every
// probeEvery windows at one level it visits a neighbour to refresh its estimate, so that
// a node that got slower or faster is followed: the next probe goes the same way if the
// limit stayed at the neighbour, the other way if it came back; a level above is kept
// only for more throughput. The first window after a move weighs at least arrival in
// its level's estimate, which may be old. A window that never used half the limit (the
// writer, not the database, was the bound) measures nothing, nor do the first warmup
// windows. An overload error halves the current level's estimate and steps down a level,
// at most once per window.
type Control struct {
	levels []int
	est    []float64 // throughput per level, statements/s
	little []float64 // what Little's law said per level (mean over its windows), for reports only
	known  []bool    // est is measured (or set by an overload)
	counts []int     // windows measured per level
	at     int       // current level
	stay   int       // windows at the current level since the last move
	up     bool      // the next probe goes up
	probed bool      // the window that ends now is a probe's

	windows     int           // windows ended, measured or not
	opened      bool          // a first write ended: windowStart is set
	windowStart time.Duration // when the current window began (the last write of the one before ended)
	lastDone    time.Duration // when the last write sampled ended

	n           int     // samples in the current window
	sumLatency  float64 // seconds
	sumInFlight float64
	sumWork     float64
	lastLatency float64 // the last window's mean latency, seconds
	cutInWindow bool
}

// NewControl starts at the level nearest initial; the limit stays within [floor,
// ceiling] (floor at least 1).
func NewControl(initial, floor, ceiling int) *Control {
	floor = max(floor, 1)
	ceiling = max(ceiling, floor)
	c := &Control{levels: ladder(floor, ceiling), up: true}
	c.est, c.little = make([]float64, len(c.levels)), make([]float64, len(c.levels))
	c.known, c.counts = make([]bool, len(c.levels)), make([]int, len(c.levels))
	for i, l := range c.levels {
		if math.Abs(math.Log(float64(l)/float64(initial))) < math.Abs(math.Log(float64(c.levels[c.at])/float64(initial))) {
			c.at = i
		}
	}
	return c
}

// ladder is floor, floor·√2, floor·2, ... up to ceiling (included).
func ladder(floor, ceiling int) []int {
	out := []int{floor}
	for l := float64(floor); ; {
		l *= math.Sqrt2
		next := int(math.Round(l))
		if next >= ceiling {
			break
		}
		if next > out[len(out)-1] {
			out = append(out, next)
		}
	}
	if ceiling > out[len(out)-1] {
		out = append(out, ceiling)
	}
	return out
}

// Limit is the number of writes to keep in flight.
func (c *Control) Limit() int { return c.levels[c.at] }

// Latency is the last window's mean latency (0 before the first window ends).
func (c *Control) Latency() time.Duration { return time.Duration(c.lastLatency * float64(time.Second)) }

// Sample records one write that succeeded (or failed for a reason that is not the
// database's load): it ended at done (on any clock that does not go back, the same for
// every sample), after latency, with inFlight writes in flight when it started (itself
// included) and work its size (statements: a batch weighs what it carries). It reports
// whether the limit changed.
func (c *Control) Sample(done, latency time.Duration, inFlight, work int) bool {
	if !c.opened { // the first write's end starts the clock: the time before it is the start's
		c.opened, c.windowStart, c.lastDone = true, done, done
		return false
	}
	c.n++
	c.lastDone = max(c.lastDone, done)
	c.sumLatency += latency.Seconds()
	c.sumInFlight += float64(inFlight)
	c.sumWork += float64(max(work, 1))
	if c.n < max(4*c.Limit(), minWindow) || c.lastDone-c.windowStart < minSpan {
		return false
	}
	return c.endWindow()
}

// Overload records a write that timed out or that the database refused as overloaded.
// It reports whether the limit changed.
func (c *Control) Overload() bool {
	if c.cutInWindow {
		return false
	}
	c.cutInWindow = true
	c.est[c.at] /= 2
	c.known[c.at] = true
	return c.move(c.at - 1)
}

func (c *Control) endWindow() bool {
	meanLatency, meanInFlight := c.sumLatency/float64(c.n), c.sumInFlight/float64(c.n)
	elapsed := (c.lastDone - c.windowStart).Seconds()
	x := c.sumWork / elapsed // statements per second: a batch counts what it carries
	little := meanInFlight / meanLatency * c.sumWork / float64(c.n)
	c.n, c.sumLatency, c.sumInFlight, c.sumWork, c.cutInWindow = 0, 0, 0, 0, false
	c.windowStart = c.lastDone
	c.lastLatency = meanLatency
	if c.windows++; c.windows <= warmup || elapsed <= 0 || meanInFlight < float64(c.Limit())/2 {
		return false // the start, or app-limited: says nothing of what this level could do
	}
	c.counts[c.at]++
	c.little[c.at] += (little - c.little[c.at]) / float64(c.counts[c.at])
	if !c.known[c.at] {
		c.est[c.at], c.known[c.at] = x, true
	} else {
		// The plain mean of a level's first windows, then an exponential average.
		w := max(smoothing, 1/float64(c.counts[c.at]))
		if c.stay == 0 {
			w = max(w, arrival) // the level's first window since it was left: its estimate may be old
		}
		c.est[c.at] += (x - c.est[c.at]) * w
	}
	c.stay++
	return c.move(c.next())
}

// next is the level to measure next.
func (c *Control) next() int {
	above, below := c.at+1, c.at-1
	if above < len(c.levels) && !c.known[above] && (!c.lost(c.at) || !c.lost(below)) {
		return above
	}
	if above < len(c.levels) && c.counts[above] == 1 && c.stay >= recheck {
		// One window is a noisy measure: a level above that stopped the climb on a single
		// window is measured again soon, not after probeEvery windows, which can hold a
		// short run one level too low for half its time.
		return above
	}
	probed := c.probed
	c.probed = false
	if c.stay >= probeEvery {
		c.probed = true
		c.up = c.up && above < len(c.levels) || below < 0
		if c.up {
			return min(above, len(c.levels)-1)
		}
		return below
	}
	to := c.choose(below, above)
	if probed && c.up && to == c.at && below >= 0 && c.est[c.at] <= c.est[below] {
		to = below // a level above is kept for more throughput only: as much costs more queue
	}
	if probed && to != c.at {
		c.up = !c.up // the probe lost: the next goes the other way; one that held goes on the same way
	}
	return to
}

// choose is the level among the current one and its neighbours to go to after a window.
func (c *Control) choose(below, above int) int {
	best := c.est[c.at]
	for _, i := range []int{below, above} {
		if i >= 0 && i < len(c.levels) {
			best = math.Max(best, c.est[i])
		}
	}
	if c.est[c.at] >= best*(1-hold) {
		// Close enough to stay: a move costs, beyond the level it goes to (a window after a
		// move makes less than one after a stay at the same level), and one window is up
		// to 30% off. Only a level below that measured at least as much is taken: as good
		// for less queue.
		if below >= 0 && c.known[below] && c.est[below] >= c.est[c.at] && c.est[below] >= best*(1-flatMargin) {
			return below
		}
		return c.at
	}
	for _, i := range []int{below, c.at, above} {
		if i >= 0 && i < len(c.levels) && c.known[i] && c.est[i] >= best*(1-flatMargin) {
			return i
		}
	}
	return c.at
}

// lost says whether level i measured clearly less throughput (by climbLoss: one window's
// estimate is noisy, and a fast node's curve is flat near its knee) than the best level
// below it. The climb to an unmeasured level goes on until two levels in a row lost, so
// it stops past the first knee instead of running to the ceiling and comparing
// neighbours there: on a node whose throughput falls past its knee and rises again
// higher up, that search gets stuck on the far side. One level that lost is not enough:
// a dip measured at one level would hold the limit below the knee
// (docs/decisions/001-adaptive-write-limit.md).
func (c *Control) lost(i int) bool {
	if i < 0 || !c.known[i] {
		return false
	}
	best := 0.0
	for j := range i {
		if c.known[j] {
			best = math.Max(best, c.est[j])
		}
	}
	return c.est[i] < best*(1-climbLoss)
}

func (c *Control) move(to int) bool {
	to = max(0, min(to, len(c.levels)-1))
	if to == c.at {
		return false
	}
	c.at, c.stay = to, 0
	return true
}

// Estimate is one level's measured throughput, for reports.
type Estimate struct {
	Level   int
	PerSec  float64 // statements per second
	Windows int     // windows measured at the level
	Little  float64 // what Little's law (in flight ÷ latency) made of the same windows, mean
}

// Estimates are the levels measured so far, lowest first.
func (c *Control) Estimates() []Estimate {
	var out []Estimate
	for i, l := range c.levels {
		if c.known[i] {
			out = append(out, Estimate{Level: l, PerSec: c.est[i], Windows: c.counts[i], Little: c.little[i]})
		}
	}
	return out
}
