// Package promtext reads a /metrics answer (the Prometheus text format) into flat
// samples, for the tools that watch the project's own processes (make soak, make
// bench-scale). The format is parsed by Prometheus's own expfmt; a histogram comes out
// as its _bucket (with an le label), _sum and _count samples, as it is written.
package promtext

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Sample is one line of the format: a metric name, its labels, a value.
type Sample struct {
	Name   string
	Labels map[string]string
	Value  float64
}

// ErrFormat names an answer that is not the Prometheus text format.
var ErrFormat = errors.New("malformed metrics")

// Parse reads the text format (timestamps ignored).
func Parse(r io.Reader) ([]Sample, error) {
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(r)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	vector, err := expfmt.ExtractSamples(&expfmt.DecodeOptions{},
		slices.Collect(maps.Values(families))...)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	out := make([]Sample, 0, len(vector))
	for _, s := range vector {
		labels := make(map[string]string, len(s.Metric))
		for k, v := range s.Metric {
			if k != model.MetricNameLabel {
				labels[string(k)] = string(v)
			}
		}
		out = append(out, Sample{Name: string(s.Metric[model.MetricNameLabel]), Labels: labels, Value: float64(s.Value)})
	}
	return out, nil
}
