// Package soak samples a long run of the indexer and the API (`make soak`): every period
// it reads both processes' /metrics (heap in use, RSS, goroutines, open files, the
// indexer's newest written milestone, the API's per-route latency histogram) into a CSV,
// and at the end says from those samples alone whether each series stayed flat
// (table.txt) and draws them against the milestone index (chart.svg).
package soak

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/stardust-indexer/stardust-indexer/internal/promtext"
)

// ErrExposition names a /metrics body that is not the Prometheus text format.
var ErrExposition = errors.New("soak: malformed metrics")

// parseMetrics reads the Prometheus text format.
func parseMetrics(r io.Reader) ([]promtext.Sample, error) {
	all, err := promtext.Parse(r)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrExposition, err)
	}
	return all, nil
}

// value is the sum of every series of name (one, for an unlabelled gauge); ok is false
// when there is none.
func value(all []promtext.Sample, name string) (v float64, ok bool) {
	for _, s := range all {
		if s.Name == name {
			v, ok = v+s.Value, true
		}
	}
	return v, ok
}

// Histogram is one route's cumulative bucket counts: Counts[i] answers took at most
// Bounds[i] seconds; the last bound is +Inf.
type Histogram struct {
	Bounds []float64
	Counts []float64
}

// histograms gathers name's buckets per route, all status classes added together.
func histograms(all []promtext.Sample, name string) map[string]*Histogram {
	byRoute := map[string]map[float64]float64{}
	for _, s := range all {
		if s.Name != name+"_bucket" {
			continue
		}
		le, err := strconv.ParseFloat(s.Labels["le"], 64)
		if err != nil {
			continue
		}
		route := s.Labels["route"]
		if byRoute[route] == nil {
			byRoute[route] = map[float64]float64{}
		}
		byRoute[route][le] += s.Value
	}
	out := map[string]*Histogram{}
	for route, buckets := range byRoute {
		h := &Histogram{}
		for le := range buckets {
			h.Bounds = append(h.Bounds, le)
		}
		slices.Sort(h.Bounds)
		for _, le := range h.Bounds {
			h.Counts = append(h.Counts, buckets[le])
		}
		out[route] = h
	}
	return out
}

// Total is the answers the histogram counts.
func (h *Histogram) Total() float64 {
	if h == nil || len(h.Counts) == 0 {
		return 0
	}
	return h.Counts[len(h.Counts)-1]
}

// Since is h minus an earlier snapshot of the same series (nil: h itself).
func (h *Histogram) Since(earlier *Histogram) *Histogram {
	d := &Histogram{Bounds: h.Bounds, Counts: make([]float64, len(h.Counts))}
	for i := range h.Counts {
		d.Counts[i] = h.Counts[i]
		if earlier != nil && i < len(earlier.Counts) && earlier.Bounds[i] == h.Bounds[i] {
			d.Counts[i] -= earlier.Counts[i]
		}
	}
	return d
}

// Quantile is the q-quantile in seconds, interpolated linearly within its bucket as
// Prometheus's histogram_quantile does; a quantile in the +Inf bucket is the highest
// finite bound (Above reports that). NaN when the histogram counts nothing.
func (h *Histogram) Quantile(q float64) float64 {
	total := h.Total()
	if total == 0 {
		return math.NaN()
	}
	rank := q * total
	lower, below := 0.0, 0.0
	for i, upper := range h.Bounds {
		if h.Counts[i] >= rank {
			if math.IsInf(upper, 1) {
				return lower
			}
			inBucket := h.Counts[i] - below
			if inBucket <= 0 {
				return upper
			}
			return lower + (upper-lower)*(rank-below)/inBucket
		}
		lower, below = upper, h.Counts[i]
	}
	return lower
}

// Above says whether the q-quantile lies past the highest finite bound.
func (h *Histogram) Above(q float64) bool {
	n := len(h.Bounds)
	return n >= 2 && math.IsInf(h.Bounds[n-1], 1) && h.Counts[n-2] < q*h.Total()
}
