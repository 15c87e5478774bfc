package soak

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/stardust-indexer/stardust-indexer/internal/readfile"
)

// Report reads samples.csv and latency.csv in dir and writes table.txt and chart.svg
// beside them; warmup is the start the verdicts leave out.
func Report(dir string, warmup time.Duration) error {
	samples, err := readfile.With("soak", filepath.Join(dir, SamplesFile), ReadSamples)
	if err != nil {
		return err
	}
	lat, err := readfile.With("soak", filepath.Join(dir, LatencyFile), ReadLatency)
	if err != nil {
		return err
	}
	err = writeFile(filepath.Join(dir, TableFile), func(w io.Writer) error { return WriteTable(w, samples, lat, warmup) })
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, ChartFile), func(w io.Writer) error { return WriteChart(w, samples, warmup) })
}

// WriteTable writes the report: the run, each series at start, middle and end of the
// samples after warm-up with its growth per 10 000 milestones and verdict, then the
// API's per-route percentiles after warm-up.
func WriteTable(w io.Writer, samples []Sample, lat Latency, warmup time.Duration) error {
	if len(samples) == 0 {
		return ErrNoSamples
	}
	first, last := samples[0], samples[len(samples)-1]
	judged := afterWarmup(samples, warmup)
	fmt.Fprintf(w, "soak: %d samples over %s, milestones %d..%d (%d written)\n", len(samples),
		last.Elapsed.Round(time.Second), first.Milestone, last.Milestone, int64(last.Milestone)-int64(first.Milestone))
	if len(judged) == 0 {
		fmt.Fprintf(w, "warm-up: %s, longer than the run: nothing to judge\n", warmup)
		return nil
	}
	span := int64(judged[len(judged)-1].Milestone) - int64(judged[0].Milestone)
	fmt.Fprintf(w, "warm-up: the first %s (up to milestone %d) is left out; judged: %d samples over %d milestones",
		warmup, judged[0].Milestone, len(judged), span)
	if span < Per {
		fmt.Fprintf(w, " (growth per %d is extrapolated)", Per)
	}
	fmt.Fprintf(w, "\nindexer lag at the end: %g milestones; API requests counted: %g\n", last.Lag, last.Requests)
	writeNodeLoad(w, judged)
	if err := writeSeries(w, judged); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nverdicts: memory is flat when its least-squares line rises at most %g%% of its start value per %d "+
		"milestones (issue 43's heap goal; share is that rise); goroutines and open files are flat when the lowest value of the last third of the "+
		"samples is no higher than the lowest of the first third.\n\n", HeapGoal*100, Per)
	return writeLatencies(w, lat)
}

// writeNodeLoad states the node requests a milestone cost in each third of the judged
// samples: count series that rise with them follow the work, not a leak.
func writeNodeLoad(w io.Writer, judged []Sample) {
	thirds, ok := NodeLoad(judged)
	if !ok {
		fmt.Fprintf(w, "node load: no node requests counted (a source other than a node)\n\n")
		return
	}
	fmt.Fprintf(w, "node load: %.1f, %.1f, %.1f node requests a milestone in the first, middle and last third "+
		"(indexer_node_requests_total)\n\n", thirds[0], thirds[1], thirds[2])
}

func writeSeries(w io.Writer, judged []Sample) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "series\tstart\tmiddle\tend\tgrowth/%d ms\tshare\tfloors\tverdict\t\n", Per)
	for _, sr := range AllSeries {
		j := Judge(sr, judged)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", sr.Name, at(sr, j.Start), at(sr, j.Middle), at(sr, j.End),
			signed(sr, j.Growth), percent(j.Share), floors(j), j.Verdict)
	}
	return tw.Flush()
}

// floors is a count series' lowest value in the first and the last third of the judged
// samples, what its verdict compares ("-" for memory or too few samples).
func floors(j Judged) string {
	if j.Kind != Count || j.Verdict == TooShort {
		return "-"
	}
	return fmt.Sprintf("%.0f → %.0f", j.FirstFloor, j.LastFloor)
}

// at is a value with the milestone it was read at.
func at(sr Series, p Point) string { return fmt.Sprintf("%s @%d", human(sr, p.Value), p.Milestone) }

func human(sr Series, v float64) string {
	if sr.Unit == "bytes" {
		return fmt.Sprintf("%.1f MB", v/1e6)
	}
	return fmt.Sprintf("%.0f", v)
}

func signed(sr Series, v float64) string {
	if sr.Unit == "bytes" {
		return fmt.Sprintf("%+.2f MB", v/1e6)
	}
	return fmt.Sprintf("%+.1f", v)
}

func percent(share float64) string { return fmt.Sprintf("%+.1f%%", share*100) }

func writeLatencies(w io.Writer, lat Latency) error {
	routes := Latencies(lat)
	fmt.Fprintf(w, "API latency after warm-up (api_request_duration_seconds, all status classes, interpolated "+
		"within its buckets: coarse above 1 s; > marks a percentile past the last bound):\n")
	if len(routes) == 0 {
		fmt.Fprintln(w, "no requests counted")
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "route\trequests\tp50\tp99\tp999\t\n")
	for _, r := range routes {
		fmt.Fprintf(tw, "%s\t%.0f\t%s\t%s\t%s\t\n", r.Route, r.Requests, ms(r.P50, false), ms(r.P99, r.Over99), ms(r.P999, r.Over999))
	}
	return tw.Flush()
}

func ms(seconds float64, over bool) string {
	if math.IsNaN(seconds) {
		return "-"
	}
	mark := ""
	if over {
		mark = ">"
	}
	return fmt.Sprintf("%s%.1f ms", mark, seconds*1000)
}
