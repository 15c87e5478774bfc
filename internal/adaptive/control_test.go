package adaptive

import (
	"math"
	"slices"
	"testing"
	"time"
)

// feed gives c windows of samples at a saturated limit and returns the limit after each
// window.
func feed(c *Control, windows int, lat func(limit int) time.Duration) []int {
	var seen []int
	for range windows {
		feedWindow(c, lat)
		seen = append(seen, c.Limit())
	}
	return seen
}

// feedWindow gives c samples until its window ends, at a saturated limit: all of it in
// flight, each write taking lat(limit) and ending lat(limit)/limit after the one before.
// It returns the samples given.
func feedWindow(c *Control, lat func(limit int) time.Duration) (samples int) {
	for w := c.windows; c.windows == w; samples++ {
		limit := c.Limit()
		l := lat(limit)
		c.Sample(c.lastDone+l/time.Duration(limit), l, limit, 1)
	}
	return samples
}

func constant(d time.Duration) func(int) time.Duration { return func(int) time.Duration { return d } }

// littleLatency is the latency at which limit writes in flight make throughput(limit)
// writes per second, times off (Little's law): a window that measures off of the truth.
func littleLatency(throughput func(int) float64, off float64) func(int) time.Duration {
	return func(limit int) time.Duration {
		return time.Duration(float64(limit) / (throughput(limit) * off) * float64(time.Second))
	}
}

// gentleSlope models the benchmarks' test node (docs/benchmarks.md): throughput (writes per second) proportional to
// the limit up to 32, then up only 6% per doubling.
func gentleSlope(limit int) float64 {
	if limit <= 32 {
		return 1000 * float64(limit)
	}
	return 32000 * (1 + 0.06*math.Log2(float64(limit)/32))
}

// windowNoise draws from seed (a linear congruential generator: the same draws every run)
// the share of the truth the next window measures, within [1-noise, 1+noise).
func windowNoise(seed *uint32, noise float64) float64 {
	return 1 - noise + 2*noise*uniform(seed)
}

// uniform draws from seed (a linear congruential generator) a number in [0, 1).
func uniform(seed *uint32) float64 {
	*seed = *seed*1664525 + 1013904223
	return float64(*seed>>8) / (1 << 24)
}

// knee models a database that serves knee writes at once: past it, writes queue and
// latency grows with the limit (Little's law at a flat throughput).
func knee(base time.Duration, knee int) func(int) time.Duration {
	return func(limit int) time.Duration { return base * time.Duration(max(limit, knee)) / time.Duration(knee) }
}

// mostly is the value seen most often.
func mostly(seen []int) int {
	counts := map[int]int{}
	for _, v := range seen {
		counts[v]++
	}
	best := seen[0]
	for v, n := range counts {
		if n > counts[best] {
			best = v
		}
	}
	return best
}

func TestLadder(t *testing.T) {
	if got, want := ladder(4, 128), []int{4, 6, 8, 11, 16, 23, 32, 45, 64, 91, 128}; !slices.Equal(got, want) {
		t.Fatalf("ladder(4, 128) = %v, want %v", got, want)
	}
	if got := ladder(5, 5); !slices.Equal(got, []int{5}) {
		t.Fatalf("ladder(5, 5) = %v", got)
	}
}

func TestControlStartsNearInitial(t *testing.T) {
	for _, tc := range []struct{ initial, want int }{{64, 64}, {60, 64}, {500, 128}, {0, 4}, {20, 23}} {
		if got := NewControl(tc.initial, 4, 128).Limit(); got != tc.want {
			t.Fatalf("initial %d: limit %d, want %d", tc.initial, got, tc.want)
		}
	}
}

func TestControlClimbsWhileThroughputGrows(t *testing.T) {
	c := NewControl(16, 4, 128)
	seen := feed(c, 60, constant(2*time.Millisecond)) // no knee below the ceiling
	if m := mostly(seen[20:]); m != 128 {
		t.Fatalf("flat latency: mostly at %d, want the ceiling 128: %v", m, seen)
	}
}

func TestControlSettlesAtTheKnee(t *testing.T) {
	for _, k := range []int{8, 24, 64} {
		for _, initial := range []int{4, 64, 128} {
			c := NewControl(initial, 4, 128)
			seen := feed(c, 200, knee(time.Millisecond, k))
			last := seen[len(seen)-60:]
			// The lowest level at or past the knee, with probes of its neighbours.
			if m := mostly(last); m < k || m > 3*k/2 {
				t.Fatalf("knee %d, from %d: mostly at %d in the last windows %v", k, initial, m, last)
			}
			if slices.Min(last) < k*2/3 || slices.Max(last) > 2*k {
				t.Fatalf("knee %d, from %d: strayed to %d-%d: %v", k, initial, slices.Min(last), slices.Max(last), last)
			}
		}
	}
}

func TestControlFollowsASlowerNode(t *testing.T) {
	c := NewControl(64, 4, 128)
	feed(c, 100, knee(time.Millisecond, 64))
	seen := feed(c, 200, knee(3*time.Millisecond, 8)) // the node got slower for good
	if m := mostly(seen[len(seen)-60:]); m < 8 || m > 11 {
		t.Fatalf("knee moved from 64 to 8: mostly at %d, want 8-11: %v", m, seen)
	}
}

func TestControlDoesNotMoveWhenUnused(t *testing.T) {
	c := NewControl(32, 4, 128)
	for i := range 20 * minWindow {
		c.Sample(time.Duration(i)*time.Millisecond, time.Millisecond, 3, 1) // the writer keeps only 3 in flight
	}
	if c.Limit() != 32 {
		t.Fatalf("limit %d after app-limited windows, want 32", c.Limit())
	}
}

func TestControlOverloadStepsDownOncePerWindow(t *testing.T) {
	c := NewControl(64, 4, 128)
	if !c.Overload() || c.Limit() != 45 {
		t.Fatalf("after an overload: limit %d, want 45", c.Limit())
	}
	if c.Overload() || c.Limit() != 45 {
		t.Fatalf("a second overload in the same window: limit %d, want 45", c.Limit())
	}
	for range 20 {
		c.Overload()
		feed(c, 1, constant(time.Millisecond))
	}
	if c.Limit() > 8 {
		t.Fatalf("limit %d after an overload in every window, want at most 8", c.Limit())
	}
}

// TestControlStopsAtTheFirstKnee models the benchmarks' slow node: throughput
// peaks at 32 in flight, falls by 40% past it and rises again towards the ceiling. From
// a low start (or the peak itself) the climb stops at the peak instead of running to the
// ceiling and settling among the lower neighbours there.
func TestControlStopsAtTheFirstKnee(t *testing.T) {
	throughput := func(limit int) float64 { // writes per second
		switch {
		case limit <= 32:
			return 1000 * float64(limit)
		case limit < 128:
			return 0.6 * 32000
		}
		return 0.85 * 32000
	}
	for _, initial := range []int{8, 32} { // a low start and StartWrites (from 64 it settles at 128)
		c := NewControl(initial, 4, 128)
		seen := feed(c, 200, littleLatency(throughput, 1))
		if m := mostly(seen[len(seen)-60:]); m != 32 {
			t.Fatalf("from %d: mostly at %d in the last windows, want the peak 32: %v", initial, m, seen)
		}
	}
}

// TestControlClimbsPastADip models the benchmarks' test node in a run where 64 in flight
// measured 25% below 45 window after window while the knee was at 128: one level that
// loses does not stop the climb, the level above it decides.
func TestControlClimbsPastADip(t *testing.T) {
	throughput := func(limit int) float64 { // writes per second
		switch {
		case limit == 64:
			return 0.75 * 45000
		case limit > 128:
			return 128000
		}
		return 1000 * float64(limit)
	}
	c := NewControl(32, 4, 256)
	seen := feed(c, 200, littleLatency(throughput, 1))
	if m := mostly(seen[len(seen)-60:]); m < 128 {
		t.Fatalf("mostly at %d in the last windows, want the knee 128 or above: %v", m, seen)
	}
}

// TestControlRechecksALevelMeasuredOnce: on a node whose throughput grows up to 64 in
// flight, the first window at 32 measures half its throughput (a burst of load elsewhere). The climb
// stops below it, measures 32 again within a few windows and goes on to the knee, instead
// of waiting probeEvery windows a level too low.
func TestControlRechecksALevelMeasuredOnce(t *testing.T) {
	c := NewControl(8, 4, 128)
	at32 := 0
	seen := feed(c, 30, func(limit int) time.Duration {
		lat := knee(time.Millisecond, 64)(limit)
		if limit == 32 {
			if at32++; at32 <= 4*32 { // the samples of its first window
				return lat * 2
			}
		}
		return lat
	})
	first := slices.Index(seen, 64)
	if first < 0 || first > 10 {
		t.Fatalf("reached 64 after %d windows, want at most 10: %v", first+1, seen)
	}
}

// TestControlStaysHighOnAGentleSlope models the benchmarks' test node: throughput grows
// fast up to 32 in flight, then by only 6% per doubling up to the ceiling (256), and every
// window measures up to 10% off. Settled, the limit keeps to levels that make at least
// 0.95 of the best on average, although each level is within a few percent of the next
// (flatMargin prefers the lower of two levels that measure alike).
func TestControlStaysHighOnAGentleSlope(t *testing.T) {
	seed := uint32(1)
	c := NewControl(8, 4, 256)
	var seen []int
	for range 300 {
		seen = append(seen, feed(c, 1, littleLatency(gentleSlope, windowNoise(&seed, 0.1)))...)
	}
	sum := 0.0
	for _, l := range seen[100:] {
		sum += gentleSlope(l) / gentleSlope(256)
	}
	if mean := sum / 200; mean < 0.95 {
		t.Fatalf("the last 200 windows made %.3f of the best throughput, want at least 0.95: %v", mean, seen)
	}
}

// TestControlOfOneLevelStays: a fixed limit (floor = ceiling, as Fixed makes) stays put
// through many windows, its probes included.
func TestControlOfOneLevelStays(t *testing.T) {
	c := NewControl(64, 64, 64)
	if seen := feed(c, 5*probeEvery, knee(time.Millisecond, 8)); slices.Min(seen) != 64 || slices.Max(seen) != 64 {
		t.Fatalf("a one-level ladder moved: %v", seen)
	}
}
