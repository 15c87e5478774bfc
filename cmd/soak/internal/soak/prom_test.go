package soak

import (
	"errors"
	"math"
	"strings"
	"testing"
)

const exposition = `# HELP go_goroutines Number of goroutines.
# TYPE go_goroutines gauge
go_goroutines 42
process_open_fds 17
indexer_last_milestone 1234 1700000000000
api_requests_total{code="2xx",route="/a"} 90
api_requests_total{code="5xx",route="/a"} 10
api_request_duration_seconds_bucket{code="2xx",route="/a",le="0.001"} 50
api_request_duration_seconds_bucket{code="2xx",route="/a",le="0.01"} 90
api_request_duration_seconds_bucket{code="2xx",route="/a",le="+Inf"} 90
api_request_duration_seconds_bucket{code="5xx",route="/a",le="0.001"} 0
api_request_duration_seconds_bucket{code="5xx",route="/a",le="0.01"} 9
api_request_duration_seconds_bucket{code="5xx",route="/a",le="+Inf"} 10
api_request_duration_seconds_bucket{code="2xx",route="/say \"hi\", {x}",le="+Inf"} 3
`

// The text format is read: unlabelled gauges, a timestamp, counters summed over their
// labels, and per-route histograms with the status classes added, quotes, commas and
// braces in a label value included.
func TestParseMetrics(t *testing.T) {
	all, err := parseMetrics(strings.NewReader(exposition))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]float64{"go_goroutines": 42, "process_open_fds": 17,
		"indexer_last_milestone": 1234, "api_requests_total": 100} {
		if got, ok := value(all, name); !ok || got != want {
			t.Errorf("%s: %g, %t; want %g", name, got, ok, want)
		}
	}
	if _, ok := value(all, "absent"); ok {
		t.Error("an absent metric was found")
	}
	h := histograms(all, "api_request_duration_seconds")
	a := h["/a"]
	if a == nil || len(a.Bounds) != 3 || !math.IsInf(a.Bounds[2], 1) || a.Counts[0] != 50 || a.Counts[1] != 99 || a.Counts[2] != 100 {
		t.Fatalf("route /a: %+v", a)
	}
	if odd := h[`/say "hi", {x}`]; odd == nil || odd.Total() != 3 {
		t.Errorf("route with quotes, a comma and braces: %v (routes %v)", odd, sortedKeys(h))
	}
}

// A line that is not the text format is refused by name.
func TestParseMetricsRefusesGarbage(t *testing.T) {
	for _, bad := range []string{"go_goroutines", "go_goroutines many", `x{a="b} 1`, `x{a=b} 1`, "{} 1"} {
		if _, err := parseMetrics(strings.NewReader(bad + "\n")); !errors.Is(err, ErrExposition) {
			t.Errorf("%q: %v, want ErrExposition", bad, err)
		}
	}
}

// Quantiles interpolate within their bucket; one past the last finite bound is that
// bound, marked Above; a snapshot taken earlier is subtracted.
func TestQuantile(t *testing.T) {
	inf := math.Inf(1)
	h := &Histogram{Bounds: []float64{0.001, 0.01, 0.1, inf}, Counts: []float64{50, 99, 100, 100}}
	for q, want := range map[float64]float64{0.5: 0.001, 0.99: 0.01, 0.999: 0.091, 0.25: 0.0005} {
		if got := h.Quantile(q); math.Abs(got-want) > 1e-12 {
			t.Errorf("q%g: %g, want %g", q, got, want)
		}
	}
	if h.Above(0.999) {
		t.Error("p999 within the buckets said to be above them")
	}
	slow := &Histogram{Bounds: []float64{0.001, 0.01, inf}, Counts: []float64{10, 90, 100}}
	if got := slow.Quantile(0.99); got != 0.01 || !slow.Above(0.99) || slow.Above(0.5) {
		t.Errorf("p99 in +Inf: %g, above %t", got, slow.Above(0.99))
	}
	d := slow.Since(&Histogram{Bounds: slow.Bounds, Counts: []float64{10, 10, 10}})
	if d.Total() != 90 || d.Counts[0] != 0 || d.Quantile(0.5) <= 0.001 {
		t.Errorf("since: %+v, p50 %g", d, d.Quantile(0.5))
	}
	if !math.IsNaN((&Histogram{}).Quantile(0.5)) {
		t.Error("an empty histogram has a quantile")
	}
}
