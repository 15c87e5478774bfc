package promtext

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/expfmt"
)

// What client_golang writes comes out flat: a gauge, a labelled counter, and a histogram
// as its _bucket samples (le as written, +Inf included), _sum and _count.
func TestParseWhatTheProcessesWrite(t *testing.T) {
	reg := prometheus.NewRegistry()
	g := prometheus.NewGauge(prometheus.GaugeOpts{Name: "indexer_last_milestone"})
	c := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "api_requests_total"}, []string{"route"})
	h := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "api_request_duration_seconds",
		Buckets: []float64{0.01, 0.1}}, []string{"route"})
	reg.MustRegister(g, c, h)
	g.Set(1234)
	c.WithLabelValues(`/say "hi", {x}`).Add(3)
	h.WithLabelValues("/a").Observe(0.05)
	h.WithLabelValues("/a").Observe(5)
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	for _, f := range families {
		if _, err := expfmt.MetricFamilyToText(&text, f); err != nil {
			t.Fatal(err)
		}
	}
	all, err := Parse(&text)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, s := range all {
		got[s.Name+"|"+s.Labels["route"]+"|"+s.Labels["le"]] = s.Value
	}
	for key, want := range map[string]float64{
		"indexer_last_milestone||": 1234, `api_requests_total|/say "hi", {x}|`: 3,
		"api_request_duration_seconds_bucket|/a|0.01": 0, "api_request_duration_seconds_bucket|/a|0.1": 1,
		"api_request_duration_seconds_bucket|/a|+Inf": 2, "api_request_duration_seconds_count|/a|": 2,
		"api_request_duration_seconds_sum|/a|": 5.05,
	} {
		if v, ok := got[key]; !ok || v != want {
			t.Errorf("%s: %g (present %t), want %g; all: %v", key, v, ok, want, got)
		}
	}
}

// A body that is not the text format is refused by name.
func TestParseRefusesGarbage(t *testing.T) {
	for _, bad := range []string{"go_goroutines", "go_goroutines many", `x{a="b} 1`, `x{a=b} 1`, "{} 1"} {
		if _, err := Parse(strings.NewReader(bad + "\n")); !errors.Is(err, ErrFormat) {
			t.Errorf("%q: %v, want ErrFormat", bad, err)
		}
	}
}
