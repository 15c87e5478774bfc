package adaptive

import (
	"fmt"
	"math"
	"testing"
	"time"
)

// BenchmarkControlStart prints what a short run (60 windows, about a 200-milestone
// BenchmarkIngest run) makes of the best throughput from each starting level, on a model
// of issue 12's test node: throughput proportional to the limit up to 32, then up 6% per
// doubling to the ceiling (256), every window measuring up to noise off. The figure is the
// run's throughput (statements over time, the climb included) ÷ the best level's, mean of
// 20 seeds. Printed, not asserted: it is what chose StartWrites (docs/benchmarks.md).
func BenchmarkControlStart(b *testing.B) {
	throughput := func(limit int) float64 {
		if limit <= 32 {
			return 1000 * float64(limit)
		}
		return 32000 * (1 + 0.06*math.Log2(float64(limit)/32))
	}
	for range b.N {
		for _, noise := range []float64{0.1, 0.3} {
			line := fmt.Sprintf("BenchmarkControlStart: windows %2.0f%% off:", 100*noise)
			for _, initial := range []int{8, 16, 32, 64} {
				share := 0.0
				for seed := uint32(1); seed <= 20; seed++ {
					share += shortRun(NewControl(initial, 4, 256), seed, noise, throughput) / throughput(256)
				}
				line += fmt.Sprintf("  from %d: %.3f", initial, share/20)
			}
			fmt.Println(line)
		}
	}
}

// shortRun feeds c 60 windows and returns the statements per second over them.
func shortRun(c *Control, seed uint32, noise float64, throughput func(int) float64) float64 {
	work, took := 0.0, 0.0
	for range 60 {
		seed = seed*1664525 + 1013904223
		off := 1 - noise + 2*noise*float64(seed>>8)/(1<<24)
		limit := c.Limit()
		lat := time.Duration(float64(limit) / (throughput(limit) * off) * float64(time.Second))
		n := max(4*limit, minWindow)
		for range n {
			c.Sample(lat, limit, 1)
		}
		work += float64(n)
		took += float64(n) / throughput(limit)
	}
	return work / took
}
