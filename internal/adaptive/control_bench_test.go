package adaptive

import (
	"fmt"
	"testing"
)

// BenchmarkControlStart prints what a short run (60 windows of at least 100 ms, about a
// 400-milestone BenchmarkIngest run on the test node) makes of the best throughput from each starting level, on a model
// of the test node (docs/benchmarks.md, adaptive write concurrency): throughput proportional to the limit up to 32, then up 6% per
// doubling to the ceiling (256), every window measuring up to noise off. The figure is the
// run's throughput (statements over time, the climb included) ÷ the best level's, mean of
// 20 seeds. Printed, not asserted: it is what StartWrites rests on (docs/decisions/001-adaptive-write-limit.md).
func BenchmarkControlStart(b *testing.B) {
	for range b.N {
		for _, noise := range []float64{0.1, 0.3} {
			line := fmt.Sprintf("BenchmarkControlStart: windows %2.0f%% off:", 100*noise)
			for _, initial := range []int{8, 16, 32, 64} {
				share := 0.0
				for seed := uint32(1); seed <= 20; seed++ {
					share += shortRun(NewControl(initial, 4, 256), seed, noise) / gentleSlope(256)
				}
				line += fmt.Sprintf("  from %d: %.3f", initial, share/20)
			}
			fmt.Println(line)
		}
	}
}

// shortRun feeds c 60 windows of gentleSlope and returns the statements per second over
// them (each window's true throughput, not what it measured).
func shortRun(c *Control, seed uint32, noise float64) float64 {
	work, took := 0.0, 0.0
	for range 60 {
		limit := c.Limit() // the same through the window: it moves at a window's end
		n := feedWindow(c, littleLatency(gentleSlope, windowNoise(&seed, noise)))
		work += float64(n)
		took += float64(n) / gentleSlope(limit)
	}
	return work / took
}
