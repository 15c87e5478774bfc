package soak

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
)

// Process is what a sample reads of one process's runtime.
type Process struct {
	HeapInuse  float64 // go_memstats_heap_inuse_bytes
	RSS        float64 // process_resident_memory_bytes
	Goroutines float64 // go_goroutines
	OpenFDs    float64 // process_open_fds
	HeapLive   float64 // go_gc_heap_live_bytes: the heap the last GC marked live
}

// Sample is one reading of both processes.
type Sample struct {
	Elapsed   time.Duration // since sampling started
	Milestone uint32        // the indexer's indexer_last_milestone
	Lag       float64       // the indexer's indexer_lag_milestones
	Indexer   Process
	API       Process
	Requests  float64 // the API's api_requests_total, all routes
	// NodeRequests is the indexer's indexer_node_requests_total, every node and outcome
	// (0 with a source other than a node): the work the count series follow.
	NodeRequests float64
}

// csvHeader names samples.csv's columns, in Sample's order.
var csvHeader = []string{"elapsed_s", "milestone", "lag_milestones",
	"indexer_heap_inuse_bytes", "indexer_rss_bytes", "indexer_goroutines", "indexer_open_fds",
	"api_heap_inuse_bytes", "api_rss_bytes", "api_goroutines", "api_open_fds", "api_requests",
	"indexer_heap_live_bytes", "api_heap_live_bytes", "indexer_node_requests"}

// laterColumns are the columns samples.csv gained after its first form (the live heaps,
// then the node requests): a file written before some or all of them still reads, with
// zeros for those it lacks.
const laterColumns = 3

func (s Sample) record() []string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	return []string{f(s.Elapsed.Seconds()), strconv.FormatUint(uint64(s.Milestone), 10), f(s.Lag),
		f(s.Indexer.HeapInuse), f(s.Indexer.RSS), f(s.Indexer.Goroutines), f(s.Indexer.OpenFDs),
		f(s.API.HeapInuse), f(s.API.RSS), f(s.API.Goroutines), f(s.API.OpenFDs), f(s.Requests),
		f(s.Indexer.HeapLive), f(s.API.HeapLive), f(s.NodeRequests)}
}

// ErrSamples names a samples.csv that cannot be read.
var ErrSamples = errors.New("soak: malformed samples")

// ReadSamples reads samples.csv (with its header).
func ReadSamples(r io.Reader) ([]Sample, error) {
	rows, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSamples, err)
	}
	if len(rows) == 0 || len(rows[0]) < len(csvHeader)-laterColumns || len(rows[0]) > len(csvHeader) ||
		rows[0][0] != csvHeader[0] {
		return nil, fmt.Errorf("%w: no header %v", ErrSamples, csvHeader)
	}
	out := make([]Sample, 0, len(rows)-1)
	for i, row := range rows[1:] {
		s, err := parseRecord(row)
		if err != nil {
			return nil, fmt.Errorf("%w: row %d: %w", ErrSamples, i+2, err)
		}
		out = append(out, s)
	}
	return out, nil
}

func parseRecord(row []string) (Sample, error) {
	v := make([]float64, len(csvHeader))
	for i, cell := range row {
		f, err := strconv.ParseFloat(cell, 64)
		if err != nil {
			return Sample{}, fmt.Errorf("column %s: %w", csvHeader[i], err)
		}
		v[i] = f
	}
	if v[1] < 0 || v[1] > 1<<32-1 {
		return Sample{}, fmt.Errorf("column milestone: %g out of range", v[1])
	}
	return Sample{Elapsed: time.Duration(v[0] * float64(time.Second)), Milestone: uint32(v[1]), Lag: v[2],
		Indexer: Process{v[3], v[4], v[5], v[6], v[12]}, API: Process{v[7], v[8], v[9], v[10], v[13]}, Requests: v[11],
		NodeRequests: v[14]}, nil
}

// WriteSamples writes samples.csv whole (header and rows): what the report reads.
func WriteSamples(w io.Writer, samples []Sample) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	for _, s := range samples {
		if err := cw.Write(s.record()); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// Latency is the API's per-route histograms at the end of the warm-up and at the last
// sample: the report's percentiles come from their difference.
type Latency struct {
	Warm, End map[string]*Histogram
}

// latency.csv's header: snapshot (warm or end), route, bucket bound, cumulative count.
var latencyHeader = []string{"snapshot", "route", "le", "count"}

// WriteLatency writes latency.csv.
func WriteLatency(w io.Writer, l Latency) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(latencyHeader); err != nil {
		return err
	}
	for _, snap := range []struct {
		name string
		h    map[string]*Histogram
	}{{"warm", l.Warm}, {"end", l.End}} {
		for _, route := range sortedKeys(snap.h) {
			h := snap.h[route]
			for i, le := range h.Bounds {
				err := cw.Write([]string{snap.name, route, strconv.FormatFloat(le, 'g', -1, 64),
					strconv.FormatFloat(h.Counts[i], 'f', -1, 64)})
				if err != nil {
					return err
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// ReadLatency reads latency.csv.
func ReadLatency(r io.Reader) (Latency, error) {
	l := Latency{Warm: map[string]*Histogram{}, End: map[string]*Histogram{}}
	rows, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return l, fmt.Errorf("%w: latency: %w", ErrSamples, err)
	}
	if len(rows) == 0 || len(rows[0]) != len(latencyHeader) || rows[0][0] != latencyHeader[0] {
		return l, fmt.Errorf("%w: latency: no header %v", ErrSamples, latencyHeader)
	}
	for i, row := range rows[1:] {
		le, err1 := strconv.ParseFloat(row[2], 64)
		n, err2 := strconv.ParseFloat(row[3], 64)
		into := map[string]map[string]*Histogram{"warm": l.Warm, "end": l.End}[row[0]]
		if err := errors.Join(err1, err2); err != nil || into == nil {
			return l, fmt.Errorf("%w: latency row %d: %v", ErrSamples, i+2, row)
		}
		h := into[row[1]]
		if h == nil {
			h = &Histogram{}
			into[row[1]] = h
		}
		h.Bounds, h.Counts = append(h.Bounds, le), append(h.Counts, n)
	}
	return l, nil
}
