package adaptive

import (
	"testing"
	"time"
)

// Quiet probes leave the cap at the ceiling; a probe past Factor × the quiet latency
// halves it, at most once per Cool probes and never below the floor; Calm fast probes
// in a row raise it by a quarter, back up to the ceiling.
func TestReadGuardCutsOnSlowProbesAndRecovers(t *testing.T) {
	g := NewReadGuard(4, 256)
	for range 50 {
		if g.Observe(time.Millisecond, false) {
			t.Fatal("a quiet probe moved the cap")
		}
	}
	if g.Cap() != 256 {
		t.Fatalf("cap %d after quiet probes, want the ceiling 256", g.Cap())
	}
	if !g.Observe(3100*time.Microsecond, false) || g.Cap() != 128 {
		t.Fatalf("a probe at 3.1 × quiet: cap %d, want 128", g.Cap())
	}
	for range 4 { // within Cool of the cut: no further cut
		g.Observe(10*time.Millisecond, false)
	}
	if g.Cap() != 128 {
		t.Fatalf("cap %d within the cool-down, want 128", g.Cap())
	}
	for range 100 {
		g.Observe(10*time.Millisecond, false)
	}
	if g.Cap() != 4 {
		t.Fatalf("cap %d after many slow probes, want the floor 4", g.Cap())
	}
	if g.Observe(2900*time.Microsecond, false) {
		t.Fatal("a probe under 3 × quiet cut or raised the cap")
	}
	rises := 0
	for range 1000 {
		if g.Observe(time.Millisecond, false) {
			rises++
		}
	}
	if g.Cap() != 256 || rises < 10 {
		t.Fatalf("cap %d after %d rises on quiet probes, want back at 256 step by step", g.Cap(), rises)
	}
}

// A probe under MinSlow is never slow, however fast the quiet ones; the quiet latency
// is the fastest of the last Span probes only.
func TestReadGuardQuietWindow(t *testing.T) {
	g := NewReadGuard(4, 64)
	g.Span = 10
	for range 10 {
		g.Observe(100*time.Microsecond, false)
	}
	if g.Observe(2900*time.Microsecond, false) || g.Cap() != 64 {
		t.Fatalf("a 2.9 ms probe (under MinSlow 3 ms) cut the cap to %d", g.Cap())
	}
	for range 10 { // the fast probes leave the window: the quiet latency is now 5 ms
		g.Observe(5*time.Millisecond, false)
	}
	before := g.Cap()
	if g.Observe(14*time.Millisecond, false) || g.Cap() != before {
		t.Fatalf("14 ms under 3 × a quiet 5 ms cut the cap %d → %d", before, g.Cap())
	}
	if !g.Observe(16*time.Millisecond, false) {
		t.Fatalf("16 ms over 3 × a quiet 5 ms left the cap at %d", g.Cap())
	}
}

// SetCap bounds the limit from above and tells onChange; lifting it gives back the
// control's own limit.
func TestLimiterCap(t *testing.T) {
	var seen []int
	l := NewLimiter(32, 4, 256, func(limit int, _ time.Duration) { seen = append(seen, limit) })
	l.SetCap(8)
	if l.Limit() != 8 {
		t.Fatalf("limit %d under a cap of 8", l.Limit())
	}
	l.SetCap(64)
	if l.Limit() != 32 {
		t.Fatalf("limit %d under a cap of 64 above the control's 32", l.Limit())
	}
	l.SetCap(0)
	if l.Limit() != 32 || len(seen) != 3 || seen[1] != 8 || seen[2] != 32 {
		t.Fatalf("limit %d, changes told %v; want 32 and [32 8 32]", l.Limit(), seen)
	}
}

// While the writer is behind, slow probes do not cut the cap and it rises back to the
// ceiling; once it keeps up again, slow probes cut as before.
func TestReadGuardLiftsForAWriterBehind(t *testing.T) {
	g := NewReadGuard(16, 256)
	for range 20 {
		g.Observe(time.Millisecond, false)
	}
	for range 50 {
		g.Observe(20*time.Millisecond, false)
	}
	if g.Cap() != 16 {
		t.Fatalf("cap %d after slow probes, want the floor 16", g.Cap())
	}
	for range 200 {
		g.Observe(20*time.Millisecond, true)
	}
	if g.Cap() != 256 {
		t.Fatalf("cap %d after slow probes while behind, want the ceiling 256", g.Cap())
	}
	for range 5 {
		g.Observe(20*time.Millisecond, false)
	}
	if g.Cap() != 128 {
		t.Fatalf("cap %d after slow probes once caught up, want 128", g.Cap())
	}
}
