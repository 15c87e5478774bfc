package adaptive

import (
	"fmt"
	"testing"
)

// BenchmarkControlNoise prints what the control makes, over runs as long as a
// BenchmarkIngest run (6 s), of the best fixed level's throughput on the two curves
// measured for the pipeline (docs/benchmarks.md, adaptive write concurrency), with windows
// as noisy as they were measured there, and how often it moves. The curves, as a share of
// the best level: the test node's from the pipeline run at fixed levels (45 in flight 0.88
// of 181, everything from 45 to 256 within 12%), the slow node's from the limiter's
// estimates (32 best, 64 at 0.72, 91 at 0.51). The noise: a 100 ms window measures up to
// 30% off its level's truth, and about one window in 30 a stall at a quarter of it (the
// per-window figures at fixed levels). A move costs: windows right after a move make 0.91
// of what their level makes at a fixed limit, those after a stay 0.96, so the figure is
// also given with the window after a move making 5% less. Mean over 100 seeds; printed,
// not asserted.
func BenchmarkControlNoise(b *testing.B) {
	for range b.N {
		for _, node := range []struct {
			name  string
			curve map[int]float64
		}{{"test node", measuredTestCurve}, {"slow node", measuredSlowCurve}} {
			line := fmt.Sprintf("BenchmarkControlNoise: %s:", node.name)
			for _, cost := range []float64{0, 0.05} {
				share, moves := 0.0, 0
				for seed := uint32(1); seed <= 100; seed++ {
					s, m := noisyRun(NewControl(32, 4, 256), node.curve, cost, seed*7919)
					share, moves = share+s, moves+m
				}
				line += fmt.Sprintf("  a move costing %2.0f%%: %.3f of the best level, %d moves a run", 100*cost, share/100, moves/100)
			}
			fmt.Println(line)
		}
	}
}

// The pipeline's throughput per level, as a share of its best (docs/benchmarks.md).
var (
	measuredTestCurve = map[int]float64{4: 0.15, 6: 0.22, 8: 0.3, 11: 0.4, 16: 0.55, 23: 0.7, 32: 0.82, 45: 0.88, 64: 0.92, 91: 0.9, 128: 0.95, 181: 1, 256: 0.97}
	measuredSlowCurve = map[int]float64{4: 0.2, 6: 0.3, 8: 0.4, 11: 0.55, 16: 0.75, 23: 0.95, 32: 1, 45: 0.93, 64: 0.72, 91: 0.51, 128: 0.57, 181: 0.6, 256: 0.6}
)

// noisyRun runs c for 6 s of modelled time on curve (20000 writes/s at its best), the
// window after a move making moveCost less, and returns the writes made ÷ what the best
// level would have made in the same time, and the moves.
func noisyRun(c *Control, curve map[int]float64, moveCost float64, seed uint32) (share float64, moves int) {
	const best = 20000.0
	made, took, last := 0.0, 0.0, c.Limit()
	for took < 6 {
		limit, rate := c.Limit(), 1.0
		if limit != last {
			rate, moves, last = 1-moveCost, moves+1, limit
		}
		off := windowNoise(&seed, 0.3)
		if uniform(&seed) < 1.0/30 {
			off /= 4
		}
		n := feedWindow(c, littleLatency(func(l int) float64 { return best * curve[l] * rate }, off))
		made += float64(n)
		took += float64(n) / (best * curve[limit] * rate)
	}
	return made / took / best, moves
}
