package adaptive

import (
	"math"
	"time"
)

// ReadGuard caps the writes in flight so that reads sharing the database keep their
// latency: it is fed the latency of a small read probed at a steady pace and says the
// cap. A probe slower than Factor times the quiet latency (the fastest probe of the
// last Span probes: some probe lands between two bursts of writes) halves the cap, at
// most once per Cool probes, down to Floor; Calm probes in a row within it raise the cap
// by a quarter, up to Ceiling, where the cap no longer binds. Writes queue in the
// database's request stages ahead of reads that arrive behind them, so the writes in
// flight bound how long a read may wait there; the adaptive limit climbs for throughput
// and would otherwise keep hundreds in flight on a node the API reads from. A writer
// that falls behind lifts the cap (Observe's behind).
type ReadGuard struct {
	Factor  float64       // a probe slower than Factor × quiet is slow
	MinSlow time.Duration // a probe is never slow below this, however fast the quiet probes
	Floor   int           // the cap never goes below (the pipeline's floor)
	Ceiling int           // at the ceiling the cap does not bind
	Span    int           // probes the quiet latency is the fastest of
	Calm    int           // fast probes in a row before the cap rises
	Cool    int           // probes after a cut before the next may cut

	recent []time.Duration // the last Span probes, a ring
	next   int
	cap    float64
	calm   int // fast probes in a row
	cooled int // probes since the last cut
}

// NewReadGuard is a guard with the defaults: slow at 3 × the fastest of the last 300
// probes (30 s at 100 ms) and at least 3 ms, rising after 10 fast probes, cutting at
// most every 5 probes. It starts uncapped.
func NewReadGuard(floor, ceiling int) *ReadGuard {
	return &ReadGuard{Factor: 3, MinSlow: 3 * time.Millisecond, Floor: max(floor, 1), Ceiling: max(ceiling, floor, 1),
		Span: 300, Calm: 10, Cool: 5, cap: float64(max(ceiling, floor, 1))}
}

// Cap is the writes in flight the guard allows now (Ceiling: not capped).
func (g *ReadGuard) Cap() int { return int(math.Round(g.cap)) }

// Observe records a probe's latency (a failed or timed-out probe counts as its timeout)
// and reports whether the cap changed. While the writer is behind (it cannot keep up
// under the cap), no probe cuts the cap and every probe counts as fast: the cap rises
// to what keeps up, and reads come first only as far as the writer can follow.
func (g *ReadGuard) Observe(latency time.Duration, behind bool) bool {
	g.remember(latency)
	g.cooled++
	before := g.Cap()
	if !behind && latency > g.slowAbove() {
		g.calm = 0
		if g.cooled >= g.Cool {
			g.cap, g.cooled = math.Max(float64(g.Floor), g.cap/2), 0
		}
		return g.Cap() != before
	}
	if g.calm++; g.calm >= g.Calm {
		g.cap, g.calm = math.Min(float64(g.Ceiling), math.Max(g.cap*1.25, g.cap+1)), 0
	}
	return g.Cap() != before
}

// slowAbove is the latency above which a probe is slow.
func (g *ReadGuard) slowAbove() time.Duration {
	quiet := g.recent[0]
	for _, l := range g.recent[1:] {
		quiet = min(quiet, l)
	}
	return max(time.Duration(float64(quiet)*g.Factor), g.MinSlow)
}

func (g *ReadGuard) remember(latency time.Duration) {
	if len(g.recent) < max(g.Span, 1) {
		g.recent = append(g.recent, latency)
		return
	}
	g.recent[g.next] = latency
	g.next = (g.next + 1) % len(g.recent)
}
