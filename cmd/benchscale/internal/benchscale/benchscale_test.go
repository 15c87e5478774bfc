package benchscale

import (
	"math"
	"strings"
	"testing"
	"time"
)

const sample = `# HELP indexer_last_milestone Newest milestone fully written.
indexer_last_milestone 2000
indexer_rows_total{table="messages"} 300
indexer_rows_total{table="outputs"} 200
indexer_write_seconds_bucket{stage="milestone",le="0.1"} 10
indexer_write_seconds_bucket{stage="milestone",le="0.2"} 30
indexer_write_seconds_bucket{stage="milestone",le="+Inf"} 40
indexer_write_seconds_count{stage="milestone"} 40
indexer_write_seconds_bucket{stage="sync",le="0.1"} 99
`

// The series the benchmark reads come out of the Prometheus text format, other stages'
// buckets left out, and the interval quantiles interpolate within the differences.
func TestParseMetricsAndIntervalQuantile(t *testing.T) {
	s, err := parseMetrics(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if s.milestone != 2000 || s.rows != 500 || s.writeCount != 40 || len(s.buckets) != 3 || s.buckets[0.1] != 10 {
		t.Fatalf("parsed %+v", s)
	}
	if !math.IsInf(maxKey(s.buckets), 1) {
		t.Fatal("+Inf bucket not parsed")
	}
	from := snapshot{buckets: map[float64]float64{0.1: 10, 0.2: 10, math.Inf(1): 10}, writeCount: 10}
	// Between the two: 0 in (0, 0.1], 20 in (0.1, 0.2], 10 above: the median (rank 15) is
	// 3/4 into (0.1, 0.2]; p99 is past the last finite bucket, which is what it says.
	if got, want := intervalQuantile(from, s, 0.5), 175*time.Millisecond; absDiff(got, want) > time.Microsecond {
		t.Fatalf("p50 = %v, want %v", got, want)
	}
	if got := intervalQuantile(from, s, 0.99); got != 200*time.Millisecond {
		t.Fatalf("p99 = %v, want 200ms", got)
	}
}

func TestSlopePer10k(t *testing.T) {
	xs := []float64{1000, 2000, 3000, 4000}
	if pct, ok := slopePer10k(xs, []float64{5, 5, 5, 5}); !ok || pct != 0 {
		t.Fatalf("flat: %v %v", pct, ok)
	}
	// y = 10 + 0.001 x: +10 per 10k milestones from 11 at the first point.
	pct, ok := slopePer10k(xs, []float64{11, 12, 13, 14})
	if !ok || math.Abs(pct-100*10/11.0) > 1e-9 {
		t.Fatalf("growing: %v %v", pct, ok)
	}
	if _, ok := slopePer10k(xs[:1], []float64{1}); ok {
		t.Fatal("one point gave a slope")
	}
}

func maxKey(m map[float64]float64) float64 {
	best := math.Inf(-1)
	for k := range m {
		best = max(best, k)
	}
	return best
}

func absDiff(a, b time.Duration) time.Duration {
	if a > b {
		return a - b
	}
	return b - a
}
