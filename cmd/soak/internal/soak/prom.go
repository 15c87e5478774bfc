// Package soak samples a long run of the indexer and the API (`make soak`): every period
// it reads both processes' /metrics (heap in use, RSS, goroutines, open files, the
// indexer's newest written milestone, the API's per-route latency histogram) into a CSV,
// and at the end says from those samples alone whether each series stayed flat
// (table.txt) and draws them against the milestone index (chart.svg).
package soak

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// series is one line of the Prometheus text format: a metric name, its labels, a value.
type series struct {
	name   string
	labels map[string]string
	value  float64
}

// ErrExposition names a /metrics body that is not the Prometheus text format.
var ErrExposition = errors.New("soak: malformed metrics line")

// parseMetrics reads the Prometheus text format (comments skipped, timestamps ignored).
func parseMetrics(r io.Reader) ([]series, error) {
	var out []series
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		s, err := parseLine(line)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, sc.Err()
}

// parseLine reads `name{a="b",c="d"} value [timestamp]`.
func parseLine(line string) (series, error) {
	s := series{labels: map[string]string{}}
	rest := line
	if i := strings.IndexAny(line, "{ "); i == 0 {
		return s, fmt.Errorf("%w: %q", ErrExposition, line)
	} else if i > 0 && line[i] == '{' {
		end := strings.LastIndexByte(line, '}')
		if end < i {
			return s, fmt.Errorf("%w: %q", ErrExposition, line)
		}
		s.name = line[:i]
		if err := parseLabels(line[i+1:end], s.labels); err != nil {
			return s, fmt.Errorf("%w: %q", err, line)
		}
		rest = line[end+1:]
	} else {
		name, after, _ := strings.Cut(line, " ")
		s.name, rest = name, after
	}
	fields := strings.Fields(rest)
	if s.name == "" || len(fields) == 0 {
		return s, fmt.Errorf("%w: %q", ErrExposition, line)
	}
	v, err := strconv.ParseFloat(fields[0], 64)
	if err != nil {
		return s, fmt.Errorf("%w: %q", ErrExposition, line)
	}
	s.value = v
	return s, nil
}

// parseLabels reads a="b",c="d" (values may hold escaped quotes and commas).
func parseLabels(text string, into map[string]string) error {
	for text = strings.TrimSpace(text); text != ""; text = strings.TrimLeft(strings.TrimSpace(text), ",") {
		name, rest, ok := strings.Cut(text, "=")
		if !ok || !strings.HasPrefix(rest, `"`) {
			return ErrExposition
		}
		value, n, err := quoted(rest)
		if err != nil {
			return err
		}
		into[strings.TrimSpace(name)] = value
		text = rest[n:]
	}
	return nil
}

// quoted reads the quoted string at the start of s and returns it unescaped and the
// bytes it took.
func quoted(s string) (string, int, error) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s) && s[i+1] == 'n':
			i++
			b.WriteByte('\n')
		case c == '\\' && i+1 < len(s): // \" and \\
			i++
			b.WriteByte(s[i])
		case c == '"':
			return b.String(), i + 1, nil
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, ErrExposition
}

// value is the sum of every series of name (one, for an unlabelled gauge); ok is false
// when there is none.
func value(all []series, name string) (v float64, ok bool) {
	for _, s := range all {
		if s.name == name {
			v, ok = v+s.value, true
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
func histograms(all []series, name string) map[string]*Histogram {
	byRoute := map[string]map[float64]float64{}
	for _, s := range all {
		if s.name != name+"_bucket" {
			continue
		}
		le, err := strconv.ParseFloat(s.labels["le"], 64)
		if err != nil {
			continue
		}
		route := s.labels["route"]
		if byRoute[route] == nil {
			byRoute[route] = map[float64]float64{}
		}
		byRoute[route][le] += s.value
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
