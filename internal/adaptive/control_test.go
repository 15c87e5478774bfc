package adaptive

import (
	"slices"
	"testing"
	"time"
)

// feed gives c windows of samples with the latency lat(limit) at a saturated limit (all
// of it in flight) and returns the limits seen after each window.
func feed(c *Control, windows int, lat func(limit int) time.Duration) []int {
	var seen []int
	for range windows {
		limit := c.Limit()
		for range max(limit, minWindow) {
			c.Sample(lat(limit), limit)
		}
		seen = append(seen, c.Limit())
	}
	return seen
}

func constant(d time.Duration) func(int) time.Duration { return func(int) time.Duration { return d } }

// knee models a database that serves knee writes at once: past it, writes queue and
// latency grows with the limit (Little's law at a flat throughput).
func knee(base time.Duration, knee int) func(int) time.Duration {
	return func(limit int) time.Duration { return base * time.Duration(max(limit, knee)) / time.Duration(knee) }
}

func TestControlGrowsWhileLatencyStaysFlat(t *testing.T) {
	c := NewControl(16, 4, 128)
	seen := feed(c, 40, constant(2*time.Millisecond))
	for i := 1; i < len(seen); i++ {
		if seen[i] < seen[i-1] {
			t.Fatalf("limit fell at a flat latency: %v", seen)
		}
	}
	if c.Limit() != 128 {
		t.Fatalf("limit %d after 40 flat windows, want the ceiling 128: %v", c.Limit(), seen)
	}
}

func TestControlSettlesPastTheKnee(t *testing.T) {
	for _, k := range []int{8, 24, 64} {
		c := NewControl(64, 4, 256)
		seen := feed(c, 200, knee(time.Millisecond, k))
		last := seen[len(seen)-20:]
		for _, l := range last {
			// At equilibrium latency is about (Tolerance / (1-1/√limit))·baseline: the limit
			// sits a bit past the knee, never below it, nowhere near the ceiling.
			if l < k || l > 3*k {
				t.Fatalf("knee %d: limit %d in the last windows %v, want within [%d, %d]", k, l, last, k, 3*k)
			}
		}
	}
}

func TestControlShrinksWhenLatencyRises(t *testing.T) {
	c := NewControl(100, 4, 128)
	feed(c, 1, constant(time.Millisecond)) // baseline 1 ms
	before := c.Limit()
	seen := feed(c, 3, constant(4*time.Millisecond))
	if seen[0] >= before || seen[2] >= seen[0] {
		t.Fatalf("latency x4: limit %d then %v, want it falling", before, seen)
	}
}

func TestControlBaselineFollowsASlowerNode(t *testing.T) {
	c := NewControl(32, 4, 128)
	feed(c, 3, constant(time.Millisecond))
	feed(c, 200, constant(3*time.Millisecond)) // the node got slower for good
	if b := c.Baseline(); b < 1800*time.Microsecond {
		t.Fatalf("baseline %s after 200 windows at 3 ms, want it to have followed", b)
	}
	if c.Limit() != 128 {
		t.Fatalf("limit %d at a flat (if slower) latency, want it grown back to 128", c.Limit())
	}
}

func TestControlDoesNotGrowWhenUnused(t *testing.T) {
	c := NewControl(32, 4, 128)
	for range 20 * 32 {
		c.Sample(time.Millisecond, 3) // the writer keeps only 3 in flight
	}
	if c.Limit() != 32 {
		t.Fatalf("limit %d after app-limited windows, want 32", c.Limit())
	}
}

func TestControlOverloadCutsOncePerWindow(t *testing.T) {
	c := NewControl(100, 4, 128)
	feed(c, 1, constant(time.Millisecond)) // the first window, at the floor
	if !c.Overload() || c.Limit() != 75 {
		t.Fatalf("after an overload: limit %d, want 75", c.Limit())
	}
	if c.Overload() || c.Limit() != 75 {
		t.Fatalf("a second overload in the same window: limit %d, want 75", c.Limit())
	}
	for range 20 {
		feed(c, 1, constant(time.Millisecond))
		c.Overload()
	}
	// An overload in every window against a growth of √limit per window: about 12.
	if c.Limit() > 16 {
		t.Fatalf("limit %d after an overload in every window, want at most 16", c.Limit())
	}
}

func TestControlBounds(t *testing.T) {
	for _, tc := range []struct{ initial, want int }{{500, 128}, {0, 4}, {32, 32}} {
		c := NewControl(tc.initial, 4, 128)
		if c.Limit() != 4 {
			t.Fatalf("initial %d: the first window runs at %d, want the floor 4", tc.initial, c.Limit())
		}
		feed(c, 1, constant(time.Millisecond))
		if c.Limit() != tc.want {
			t.Fatalf("initial %d within [4,128]: %d after the first window, want %d", tc.initial, c.Limit(), tc.want)
		}
	}
	c := NewControl(100, 4, 128)
	feed(c, 1, constant(time.Millisecond))
	seen := feed(c, 20, constant(time.Second))
	// Down to the floor, never below; there the baseline follows the slower node.
	if slices.Min(seen) != 4 {
		t.Fatalf("limits %v after latency x1000, want down to the floor 4", seen)
	}
}
