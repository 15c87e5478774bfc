package soak

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// HeapGoal is issue 43's goal for memory: after warm-up, heap in use grows at most this
// share per 10 000 milestones. RSS is judged against it too.
const HeapGoal = 0.02

// Per is the milestone span growth is stated for.
const Per = 10_000

// Kind says how a series is judged.
type Kind int

const (
	// Memory is judged by its least-squares line against the milestone index: flat when
	// it rises at most HeapGoal of its value at the first judged sample per Per milestones.
	Memory Kind = iota
	// Count (goroutines, open files) must stay constant. Requests in flight add to it
	// above a floor, so it is judged by its floor: flat when the lowest value of the last
	// third of the samples is no higher than the lowest of the first third.
	Count
)

// Series is one column of the samples, named for the table and the chart.
type Series struct {
	Name string
	Unit string // "bytes" or ""
	Kind Kind
	Of   func(Sample) float64
}

// AllSeries are the series the report judges and draws, in order.
var AllSeries = []Series{
	{"indexer heap in use", "bytes", Memory, func(s Sample) float64 { return s.Indexer.HeapInuse }},
	{"indexer live heap", "bytes", Memory, func(s Sample) float64 { return s.Indexer.HeapLive }},
	{"indexer RSS", "bytes", Memory, func(s Sample) float64 { return s.Indexer.RSS }},
	{"indexer goroutines", "", Count, func(s Sample) float64 { return s.Indexer.Goroutines }},
	{"indexer open files", "", Count, func(s Sample) float64 { return s.Indexer.OpenFDs }},
	{"api heap in use", "bytes", Memory, func(s Sample) float64 { return s.API.HeapInuse }},
	{"api live heap", "bytes", Memory, func(s Sample) float64 { return s.API.HeapLive }},
	{"api RSS", "bytes", Memory, func(s Sample) float64 { return s.API.RSS }},
	{"api goroutines", "", Count, func(s Sample) float64 { return s.API.Goroutines }},
	{"api open files", "", Count, func(s Sample) float64 { return s.API.OpenFDs }},
}

// Verdicts.
const (
	Flat     = "flat"
	Growing  = "growing"
	TooShort = "too short to tell"
)

// minJudged is the fewest samples after warm-up a verdict needs (a third of them each
// for the floors).
const minJudged = 6

// Point is a series' value at a sample.
type Point struct {
	Milestone uint32
	Elapsed   time.Duration
	Value     float64
}

// Judged is one series after warm-up: its start, middle and end, its growth per Per
// milestones (as a value and as a share of its mean) and the verdict.
type Judged struct {
	Series
	Start, Middle, End Point
	Growth             float64 // least-squares slope × Per
	Share              float64 // Growth / the fitted line's value at Start
	FirstFloor         float64 // Count: lowest value of the first third
	LastFloor          float64 // Count: lowest value of the last third
	Verdict            string
}

// afterWarmup is the samples at or after warmup.
func afterWarmup(samples []Sample, warmup time.Duration) []Sample {
	i := slices.IndexFunc(samples, func(s Sample) bool { return s.Elapsed >= warmup })
	if i < 0 {
		return nil
	}
	return samples[i:]
}

// Judge judges one series over the samples after warm-up.
func Judge(sr Series, judged []Sample) Judged {
	j := Judged{Series: sr, Verdict: TooShort}
	if len(judged) == 0 {
		return j
	}
	point := func(s Sample) Point { return Point{s.Milestone, s.Elapsed, sr.Of(s)} }
	j.Start, j.End = point(judged[0]), point(judged[len(judged)-1])
	j.Middle = point(middle(judged))
	slope, base, ok := fit(sr, judged)
	if ok {
		j.Growth, j.Share = slope*Per, slope*Per/base
	}
	third := len(judged) / 3
	if len(judged) < minJudged || !ok {
		return j
	}
	j.FirstFloor, j.LastFloor = floor(sr, judged[:third]), floor(sr, judged[len(judged)-third:])
	switch {
	case sr.Kind == Memory && j.Share <= HeapGoal:
		j.Verdict = Flat
	case sr.Kind == Count && j.LastFloor <= j.FirstFloor:
		j.Verdict = Flat
	default:
		j.Verdict = Growing
	}
	return j
}

// middle is the sample whose milestone is nearest the middle of the range.
func middle(judged []Sample) Sample {
	mid := (float64(judged[0].Milestone) + float64(judged[len(judged)-1].Milestone)) / 2
	return slices.MinFunc(judged, func(a, b Sample) int {
		return cmp.Compare(math.Abs(float64(a.Milestone)-mid), math.Abs(float64(b.Milestone)-mid))
	})
}

// fit is the least-squares line of the series against the milestone index: its slope
// and its value at the first sample; ok is false when the milestones did not move or
// that value is not positive.
func fit(sr Series, judged []Sample) (slope, base float64, ok bool) {
	var sx, sy float64
	for _, s := range judged {
		sx, sy = sx+float64(s.Milestone), sy+sr.Of(s)
	}
	n := float64(len(judged))
	mx, my := sx/n, sy/n
	var sxy, sxx float64
	for _, s := range judged {
		dx := float64(s.Milestone) - mx
		sxy, sxx = sxy+dx*(sr.Of(s)-my), sxx+dx*dx
	}
	if sxx == 0 {
		return 0, 0, false
	}
	slope = sxy / sxx
	base = my + slope*(float64(judged[0].Milestone)-mx)
	return slope, base, base > 0
}

func floor(sr Series, part []Sample) float64 {
	low := math.Inf(1)
	for _, s := range part {
		low = min(low, sr.Of(s))
	}
	return low
}

// NodeLoad is the indexer's node requests per milestone written in each third of the
// judged samples (first, middle, last): the work the count series follow. ok is false
// when the indexer made no node request (another source) or a third wrote no milestone.
func NodeLoad(judged []Sample) (thirds [3]float64, ok bool) {
	third := len(judged) / 3
	if third < 1 || judged[len(judged)-1].NodeRequests == 0 {
		return thirds, false
	}
	for k := range thirds {
		from, to := judged[k*third], judged[min((k+1)*third, len(judged)-1)]
		written := float64(to.Milestone) - float64(from.Milestone)
		if written <= 0 {
			return thirds, false
		}
		thirds[k] = (to.NodeRequests - from.NodeRequests) / written
	}
	return thirds, true
}

// RouteLatency is one route's percentiles after warm-up.
type RouteLatency struct {
	Route           string
	Requests        float64
	P50, P99, P999  float64 // seconds
	Over99, Over999 bool    // past the histogram's highest bound
}

// Latencies are the per-route percentiles of the answers counted between the warm and
// the end snapshot, busiest route first.
func Latencies(l Latency) []RouteLatency {
	var out []RouteLatency
	for route, end := range l.End {
		h := end.Since(l.Warm[route])
		if h.Total() == 0 {
			continue
		}
		out = append(out, RouteLatency{Route: route, Requests: h.Total(), P50: h.Quantile(0.5), P99: h.Quantile(0.99),
			P999: h.Quantile(0.999), Over99: h.Above(0.99), Over999: h.Above(0.999)})
	}
	slices.SortFunc(out, func(a, b RouteLatency) int {
		return cmp.Or(cmp.Compare(b.Requests, a.Requests), cmp.Compare(a.Route, b.Route))
	})
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
