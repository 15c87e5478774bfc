package adaptive

import (
	"math"
	"slices"
	"testing"
	"time"
)

// sampleWindow gives c samples until its window ends, each taking lat and ending step
// after the one before, with inFlight writes in flight; it returns the samples given.
func sampleWindow(c *Control, lat, step time.Duration, inFlight int) (samples int) {
	for w := c.windows; c.windows == w; samples++ {
		c.Sample(c.lastDone+step, lat, inFlight, 1)
	}
	return samples
}

// A ladder never holds a level twice: floor 1 times √2 rounds to 1 again.
func TestLadderSkipsARepeatedLevel(t *testing.T) {
	if got, want := ladder(1, 8), []int{1, 2, 3, 4, 6, 8}; !slices.Equal(got, want) {
		t.Fatalf("ladder(1, 8) = %v, want %v", got, want)
	}
}

// A window is 4·limit samples (at least minWindow) when they span minSpan or more.
func TestWindowIsFourSamplesPerLevel(t *testing.T) {
	c := NewControl(64, 64, 64)
	sampleWindow(c, 100*time.Millisecond, 100*time.Millisecond/64, 64) // opens the clock
	if got := sampleWindow(c, 100*time.Millisecond, 100*time.Millisecond/64, 64); got != 4*64 {
		t.Fatalf("a window of %d samples at limit 64, want %d", got, 4*64)
	}
}

// A window that has its samples lasts at least minSpan: 1 µs apart, it takes 100 000.
func TestWindowLastsMinSpan(t *testing.T) {
	c := NewControl(64, 64, 64)
	sampleWindow(c, 64*time.Microsecond, time.Microsecond, 64)
	if got, want := sampleWindow(c, 64*time.Microsecond, time.Microsecond, 64), int(minSpan/time.Microsecond); got != want {
		t.Fatalf("a window of %d samples 1 µs apart, want %d (minSpan)", got, want)
	}
}

// The first warmup windows measure nothing; each later one counts once.
func TestWarmupWindowsMeasureNothing(t *testing.T) {
	c := NewControl(64, 64, 64)
	for range 5 {
		sampleWindow(c, 100*time.Millisecond, 100*time.Millisecond/64, 64)
	}
	if e := c.Estimates(); len(e) != 1 || e[0].Windows != 5-warmup {
		t.Fatalf("estimates after 5 windows: %+v, want one level measured in %d windows", e, 5-warmup)
	}
}

// A window that used half the limit measures its level; less is the writer's bound.
func TestHalfTheLimitInFlightMeasures(t *testing.T) {
	c := NewControl(64, 64, 64)
	for range warmup + 1 {
		sampleWindow(c, 100*time.Millisecond, 100*time.Millisecond/64, 32)
	}
	if e := c.Estimates(); len(e) != 1 || e[0].Windows != 1 {
		t.Fatalf("estimates after a window at 32 of 64 in flight: %+v, want one window measured", e)
	}
}

// Two measured windows at one level: throughput 640/s then 320/s (256 writes in 0.4 s,
// then in 0.8 s); Little's law says 64/0.1 s and 64/0.2 s. The estimate is the mean of the
// two (the plain mean of a level's first windows), Little's the mean too, and Latency the
// last window's mean latency.
func TestEstimatesOfTwoWindows(t *testing.T) {
	c := NewControl(64, 64, 64)
	for range warmup + 1 {
		sampleWindow(c, 100*time.Millisecond, 100*time.Millisecond/64, 64)
	}
	sampleWindow(c, 200*time.Millisecond, 200*time.Millisecond/64, 64)
	e := c.Estimates()
	if len(e) != 1 || e[0].Windows != 2 || math.Abs(e[0].PerSec-480) > 1e-6 || math.Abs(e[0].Little-480) > 1e-6 {
		t.Fatalf("estimates %+v, want 480/s by throughput and by Little's law over 2 windows", e)
	}
	if got := c.Latency(); got != 200*time.Millisecond {
		t.Fatalf("Latency %v, want the last window's 200ms", got)
	}
}

// The first window after arriving at a level weighs arrival in its estimate, later ones
// smoothing: a level measured at 1000/s that now makes 2000/s is estimated at 1500/s on
// arrival, at 1300/s when the limit stayed.
func TestArrivalWindowWeighsMore(t *testing.T) {
	for _, tc := range []struct {
		stay int
		want float64
	}{{0, 1500}, {3, 1300}} {
		c := NewControl(4, 1, 8)
		at := c.at
		c.known[at], c.est[at], c.counts[at], c.stay, c.windows = true, 1000, 5, tc.stay, warmup
		c.n, c.sumLatency, c.sumInFlight, c.sumWork = 10, 0.1, 40, 200
		c.windowStart, c.lastDone = 0, 100*time.Millisecond
		c.endWindow()
		if math.Abs(c.est[at]-tc.want) > 1e-6 {
			t.Fatalf("stay %d: estimate %.1f, want %.0f", tc.stay, c.est[at], tc.want)
		}
	}
}
