package soak

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/stardust-indexer/stardust-indexer/internal/promtext"
)

// Config is a sampling run.
type Config struct {
	IndexerURL string        // the indexer's ops listener, e.g. http://127.0.0.1:9100
	APIURL     string        // the API's ops listener, e.g. http://127.0.0.1:9101
	Every      time.Duration // sample period
	Duration   time.Duration // how long to sample
	Warmup     time.Duration // the start the verdicts leave out
	Dir        string        // samples.csv, latency.csv, table.txt, chart.svg go here
	Log        io.Writer     // a line per failed scrape (nil: none)
	Client     *http.Client  // nil: one with a 5 s timeout
}

// Files the run writes in Config.Dir.
const (
	SamplesFile = "samples.csv"
	LatencyFile = "latency.csv"
	TableFile   = "table.txt"
	ChartFile   = "chart.svg"
)

// ErrNoSamples: no scrape of both processes succeeded.
var ErrNoSamples = errors.New("soak: no sample read")

// Run samples both processes every Config.Every for Config.Duration (or until ctx ends),
// appending each sample to samples.csv as it is read, so that a run cut short keeps what
// it read, then writes the report (Report).
func Run(ctx context.Context, cfg Config) error {
	if cfg.Every <= 0 || cfg.Duration <= 0 {
		return fmt.Errorf("soak: sample period %s, duration %s: want both positive", cfg.Every, cfg.Duration)
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: 5 * time.Second}
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	f, err := os.Create(filepath.Join(cfg.Dir, SamplesFile))
	if err != nil {
		return fmt.Errorf("soak: %w", err)
	}
	defer f.Close()
	n, err := sampleLoop(ctx, cfg, csv.NewWriter(f))
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrNoSamples
	}
	return Report(cfg.Dir, cfg.Warmup)
}

// sampleLoop reads a sample at once and then every period until the run ends; it
// returns how many it wrote.
func sampleLoop(ctx context.Context, cfg Config, w *csv.Writer) (int, error) {
	if err := w.Write(csvHeader); err != nil {
		return 0, err
	}
	start := time.Now()
	end := time.NewTimer(cfg.Duration)
	defer end.Stop()
	tick := time.NewTicker(cfg.Every)
	defer tick.Stop()
	var lat Latency
	n := 0
	for {
		s, hist, err := scrape(ctx, cfg, time.Since(start))
		if err != nil {
			fmt.Fprintf(cfg.Log, "soak: sample at %s: %v\n", time.Since(start).Round(time.Second), err)
		} else if err := keep(cfg, w, s, hist, &lat); err != nil {
			return n, err
		} else {
			n++
		}
		select {
		case <-ctx.Done():
			return n, nil
		case <-end.C:
			return n, nil
		case <-tick.C:
		}
	}
}

// keep appends s and records the latency snapshots: the warm one is the first taken
// after the warm-up.
func keep(cfg Config, w *csv.Writer, s Sample, hist map[string]*Histogram, lat *Latency) error {
	if err := w.Write(s.record()); err != nil {
		return err
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	if lat.Warm == nil && s.Elapsed >= cfg.Warmup {
		lat.Warm = hist
	}
	lat.End = hist
	return writeFile(filepath.Join(cfg.Dir, LatencyFile), func(out io.Writer) error { return WriteLatency(out, *lat) })
}

// scrape reads one sample from both ops listeners.
func scrape(ctx context.Context, cfg Config, elapsed time.Duration) (Sample, map[string]*Histogram, error) {
	ix, err := fetch(ctx, cfg.Client, cfg.IndexerURL+"/metrics")
	if err != nil {
		return Sample{}, nil, fmt.Errorf("indexer: %w", err)
	}
	api, err := fetch(ctx, cfg.Client, cfg.APIURL+"/metrics")
	if err != nil {
		return Sample{}, nil, fmt.Errorf("api: %w", err)
	}
	ms, _ := value(ix, "indexer_last_milestone")
	lag, _ := value(ix, "indexer_lag_milestones")
	req, _ := value(api, "api_requests_total")
	node, _ := value(ix, "indexer_node_requests_total")
	s := Sample{Elapsed: elapsed, Milestone: uint32(max(ms, 0)), Lag: lag, Indexer: process(ix), API: process(api), Requests: req,
		NodeRequests: node}
	return s, histograms(api, "api_request_duration_seconds"), nil
}

func process(all []promtext.Sample) Process {
	var p Process
	p.HeapInuse, _ = value(all, "go_memstats_heap_inuse_bytes")
	p.RSS, _ = value(all, "process_resident_memory_bytes")
	p.Goroutines, _ = value(all, "go_goroutines")
	p.OpenFDs, _ = value(all, "process_open_fds")
	p.HeapLive, _ = value(all, "go_gc_heap_live_bytes")
	return p
}

func fetch(ctx context.Context, c *http.Client, url string) ([]promtext.Sample, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return parseMetrics(resp.Body)
}

// writeFile writes path through a temporary file renamed over it, so that a reader
// never sees half a file.
func writeFile(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("soak: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := errors.Join(write(tmp), tmp.Close()); err != nil {
		return fmt.Errorf("soak: writing %s: %w", path, err)
	}
	return os.Rename(tmp.Name(), path)
}
