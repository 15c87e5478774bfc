package adaptive

import "testing"

// rig is a control on the ladder 1 2 3 4 6 8 at level index at, every level measured
// (5 windows each) at the given estimates, stay windows at the current level.
func rig(at, stay int, est ...float64) *Control {
	c := NewControl(1, 1, 8)
	c.at, c.stay = at, stay
	for i := range c.levels {
		c.known[i], c.counts[i], c.est[i] = true, 5, est[i]
	}
	return c
}

// The level above, measured in one window only, is measured again after recheck windows.
func TestRecheckAfterRecheckWindows(t *testing.T) {
	c := rig(2, recheck, 1000, 1000, 1000, 1000, 1000, 1000)
	c.counts[3] = 1
	if got := c.next(); got != 3 {
		t.Fatalf("next %d after %d windows with the level above measured once, want 3", got, recheck)
	}
}

// After probeEvery windows at one level the limit visits a neighbour, up while it may.
func TestProbeAfterProbeEveryWindows(t *testing.T) {
	c := rig(2, probeEvery, 1000, 1000, 1000, 1000, 1000, 1000)
	if got := c.next(); got != 3 || !c.probed {
		t.Fatalf("next %d (probed %v) after %d windows, want a probe up to 3", got, c.probed, probeEvery)
	}
}

// At the top of the ladder a probe goes down, and the next one too.
func TestProbeAtTheTopGoesDown(t *testing.T) {
	c := rig(5, probeEvery, 1000, 1000, 1000, 1000, 1000, 1000)
	if got := c.next(); got != 4 || c.up {
		t.Fatalf("next %d (up %v) at the top, want a probe down to 4", got, c.up)
	}
}

// A probe up that held is kept only for more throughput: as much as the level below
// (and not enough to go below by choose) sends the limit below, and the next probe down.
func TestProbeUpKeptOnlyForMore(t *testing.T) {
	c := rig(2, 3, 0, 975, 975, 1000, 0, 0)
	c.probed, c.up = true, true
	if got := c.next(); got != 1 || c.up {
		t.Fatalf("next %d (up %v) after a probe up held at the below's throughput, want 1, down", got, c.up)
	}
}

// The current level stays while within hold of the best of it and its neighbours.
func TestChooseStaysWithinHold(t *testing.T) {
	c := rig(2, 3, 0, 900, 1000*(1-hold), 1000, 0, 0)
	if got := c.choose(1, 3); got != 2 {
		t.Fatalf("choose %d at exactly hold below the best, want to stay at 2", got)
	}
}

// Staying, the limit goes down to a level below that measured as much, within
// flatMargin of the best: index 0 too.
func TestChooseTakesALevelBelowAsGood(t *testing.T) {
	c := rig(1, 3, 1000, 1000, 0, 0, 0, 0)
	c.known[2] = false
	if got := c.choose(0, 2); got != 0 {
		t.Fatalf("choose %d with level 0 as good as level 1, want 0", got)
	}
	c = rig(2, 3, 0, 1000*(1-flatMargin), 1000*(1-flatMargin), 1000, 0, 0)
	if got := c.choose(1, 3); got != 1 {
		t.Fatalf("choose %d with the level below at exactly flatMargin under the best, want 1", got)
	}
}

// Leaving, the limit goes to the lowest level within flatMargin of the best: index 0,
// and a level at exactly flatMargin under the best.
func TestChooseLowestWithinFlatMargin(t *testing.T) {
	c := rig(1, 3, 995, 900, 1000, 0, 0, 0)
	if got := c.choose(0, 2); got != 0 {
		t.Fatalf("choose %d with level 0 within flatMargin of the best, want 0", got)
	}
	c = rig(2, 3, 0, 1000*(1-flatMargin), 900, 1000, 0, 0)
	if got := c.choose(1, 3); got != 1 {
		t.Fatalf("choose %d with the level below at exactly flatMargin under the best, want 1", got)
	}
}

// A level lost when it measured more than climbLoss under the best level below it.
func TestLostByClimbLoss(t *testing.T) {
	for _, tc := range []struct {
		est  float64
		want bool
	}{{1000 * (1 - climbLoss), false}, {950, false}, {899, true}} {
		c := rig(1, 3, 1000, tc.est, 0, 0, 0, 0)
		if got := c.lost(1); got != tc.want {
			t.Fatalf("lost with %.1f under a best of 1000: %v, want %v", tc.est, got, tc.want)
		}
	}
}

// A probe that goes down from level 1 reaches level 0, and the next probe goes up again
// only if the limit came back.
func TestProbeDownReachesLevelZero(t *testing.T) {
	c := rig(1, probeEvery, 1000, 1000, 1000, 1000, 1000, 1000)
	c.up = false
	if got := c.next(); got != 0 || c.up {
		t.Fatalf("next %d (up %v) probing down from 1, want 0", got, c.up)
	}
}

// The rule that keeps a probe up only for more throughput applies above level 0 too.
func TestProbeUpKeptOnlyForMoreThanLevelZero(t *testing.T) {
	c := rig(1, 3, 975, 975, 1000, 0, 0, 0)
	c.probed, c.up = true, true
	if got := c.next(); got != 0 {
		t.Fatalf("next %d after a probe up to 1 held at level 0's throughput, want 0", got)
	}
}
