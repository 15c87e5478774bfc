// Package adaptive finds how many writes to keep in flight against a database whose
// speed is not known in advance. It measures, from each write's latency and the writes
// in flight, the throughput each concurrency level gives (Little's law: throughput =
// writes in flight / latency) and climbs to the lowest level that gives the most, the
// database's knee; overload errors push it down at once.
//
// Why not a pure latency-gradient limiter (Vegas, Gradient2: shrink once latency exceeds
// a multiple of the minimum latency)? On a node that shares its CPUs, latency keeps
// rising with the writes in flight while throughput still rises too: such a limiter,
// tried first, settled at 7-8 in flight where the best plain writer used 256, at a third
// of its throughput (docs/benchmarks.md, issue 12).
package adaptive

import (
	"math"
	"time"
)

// The control's constants.
const (
	minWindow  = 128  // samples per window, at least; else 4 per level
	smoothing  = 0.3  // weight of a new window in a level's throughput estimate
	flatMargin = 0.03 // a lower level within this share of the best throughput is as good (less queue)
	probeEvery = 8    // windows at one level before a neighbour is measured again
	climbLoss  = 0.10 // a first climb stops at a level that measured this much less than the one below
	recheck    = 2    // windows at one level before a level above it, measured only once, is measured again
)

// Control is the pure control logic, without locks or clocks: it is fed one completed
// write at a time and says the limit. The limit moves on a ladder of levels √2 apart
// between floor and ceiling. Every window (4·limit samples, at least minWindow) yields
// the window's throughput in statements, mean in flight / mean latency × mean size of a
// write (Little's law), which updates the current level's estimate (the mean of its first
// windows, then an exponential average). Then the limit moves one level: up while the
// level above is unmeasured and this level did not lose to the one below; up again after
// recheck windows when the level above was measured in one window only; else to the
// lowest of the current level and its two neighbours whose estimate is within flatMargin
// of the best of them. Every probeEvery
// windows at one level it visits a neighbour (alternately above and below) to refresh
// its estimate, so that a node that got slower or faster is followed. A window that
// never used half the limit (the writer, not the database, was the bound) measures
// nothing. An overload error halves the current level's estimate and steps down a level,
// at most once per window.
type Control struct {
	levels []int
	est    []float64 // throughput per level, statements/s
	known  []bool    // est is measured (or set by an overload)
	counts []int     // windows measured per level
	at     int       // current level
	stay   int       // windows at the current level since the last move
	up     bool      // the next probe goes up

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
	c.est, c.known, c.counts = make([]float64, len(c.levels)), make([]bool, len(c.levels)), make([]int, len(c.levels))
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
// database's load) after latency, with inFlight writes in flight when it started (itself
// included) and work its size (statements: a batch weighs what it carries). It reports
// whether the limit changed.
func (c *Control) Sample(latency time.Duration, inFlight, work int) bool {
	c.n++
	c.sumLatency += latency.Seconds()
	c.sumInFlight += float64(inFlight)
	c.sumWork += float64(max(work, 1))
	if c.n < max(4*c.Limit(), minWindow) {
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
	meanLatency, meanInFlight, meanWork := c.sumLatency/float64(c.n), c.sumInFlight/float64(c.n), c.sumWork/float64(c.n)
	c.n, c.sumLatency, c.sumInFlight, c.sumWork, c.cutInWindow = 0, 0, 0, 0, false
	c.lastLatency = meanLatency
	if meanLatency <= 0 || meanInFlight < float64(c.Limit())/2 {
		return false // app-limited: says nothing of what this level could do
	}
	// Little's law gives the writes completed per second; times their mean size, the
	// statements per second: writes of mixed sizes (single statements, batches of up to
	// 32) would otherwise make a level that happened to get small ones look faster.
	x := meanInFlight / meanLatency * meanWork
	c.counts[c.at]++
	if !c.known[c.at] {
		c.est[c.at], c.known[c.at] = x, true
	} else {
		// The plain mean of a level's first windows, then an exponential average.
		c.est[c.at] += (x - c.est[c.at]) * max(smoothing, 1/float64(c.counts[c.at]))
	}
	c.stay++
	return c.move(c.next())
}

// next is the level to measure next.
func (c *Control) next() int {
	above, below := c.at+1, c.at-1
	if above < len(c.levels) && !c.known[above] && c.notWorse(below) {
		return above
	}
	if above < len(c.levels) && c.counts[above] == 1 && c.stay >= recheck {
		// One window is a noisy measure: a level above that stopped the climb on a single
		// window is measured again soon, not after probeEvery windows (a short run spent
		// half its time one level too low that way: issue 12).
		return above
	}
	if c.stay >= probeEvery {
		c.up = !c.up
		if c.up && above < len(c.levels) || below < 0 {
			return min(above, len(c.levels)-1)
		}
		return below
	}
	best := c.est[c.at]
	for _, i := range []int{below, above} {
		if i >= 0 && i < len(c.levels) {
			best = math.Max(best, c.est[i])
		}
	}
	for _, i := range []int{below, c.at, above} {
		if i >= 0 && i < len(c.levels) && c.known[i] && c.est[i] >= best*(1-flatMargin) {
			return i
		}
	}
	return c.at
}

// notWorse says whether the current level did not measure clearly less throughput than
// the level below (by climbLoss: one window's estimate is noisy, and a fast node's curve
// is flat near its knee), or there is nothing below to compare with. The climb to an
// unmeasured level goes on only while it does not lose, so it stops past the first knee
// instead of running to the ceiling and comparing neighbours there: on a node whose
// throughput falls past its knee and rises again higher up, that search got stuck on the
// far side, at 0.6 of the best plain writer (issue 12's slow node).
func (c *Control) notWorse(below int) bool {
	return below < 0 || !c.known[below] || c.est[c.at] >= c.est[below]*(1-climbLoss)
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
}

// Estimates are the levels measured so far, lowest first.
func (c *Control) Estimates() []Estimate {
	var out []Estimate
	for i, l := range c.levels {
		if c.known[i] {
			out = append(out, Estimate{Level: l, PerSec: c.est[i], Windows: c.counts[i]})
		}
	}
	return out
}
