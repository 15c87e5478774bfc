package soak

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/internal/readfile"
)

// A run reads both ops listeners every period into samples.csv (the indexer's milestone
// from indexer_last_milestone), keeps the API's histograms at the warm-up's end and at
// the last sample, and writes the table and the chart from those files.
func TestRunSamplesBothProcesses(t *testing.T) {
	var scrapes atomic.Int64
	indexer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		n := scrapes.Add(1)
		fmt.Fprintf(w, "go_memstats_heap_inuse_bytes %d\nprocess_resident_memory_bytes 9e7\ngo_goroutines 30\n"+
			"process_open_fds 12\nindexer_last_milestone %d\nindexer_lag_milestones 1\n", 50_000_000+n, 100*n)
	}))
	defer indexer.Close()
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		n := scrapes.Load()
		fmt.Fprintf(w, "go_memstats_heap_inuse_bytes 2e7\nprocess_resident_memory_bytes 4e7\ngo_goroutines 8\nprocess_open_fds 9\n"+
			"api_requests_total{route=\"/x\",code=\"2xx\"} %d\n"+
			"api_request_duration_seconds_bucket{route=\"/x\",code=\"2xx\",le=\"0.01\"} %d\n"+
			"api_request_duration_seconds_bucket{route=\"/x\",code=\"2xx\",le=\"+Inf\"} %d\n", 10*n, 10*n, 10*n)
	}))
	defer api.Close()
	dir := t.TempDir()
	err := Run(context.Background(), Config{IndexerURL: indexer.URL, APIURL: api.URL, Every: 20 * time.Millisecond,
		Duration: 300 * time.Millisecond, Warmup: 100 * time.Millisecond, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	samples, err := readfile.With("soak", filepath.Join(dir, SamplesFile), ReadSamples)
	if err != nil || len(samples) < 5 {
		t.Fatalf("%d samples, %v", len(samples), err)
	}
	last := samples[len(samples)-1]
	if last.Milestone < 500 || last.Indexer.OpenFDs != 12 || last.API.RSS != 4e7 || last.Lag != 1 || last.Requests == 0 {
		t.Errorf("last sample %+v", last)
	}
	lat, err := readfile.With("soak", filepath.Join(dir, LatencyFile), ReadLatency)
	if err != nil || lat.Warm["/x"] == nil || lat.End["/x"].Total() <= lat.Warm["/x"].Total() {
		t.Fatalf("latency snapshots %+v, %v", lat, err)
	}
	for _, name := range []string{TableFile, ChartFile} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !strings.Contains(string(b), "indexer heap in use") {
			t.Errorf("%s: %v\n%s", name, err, b)
		}
	}
}

// A run whose processes never answer writes no report and says so.
func TestRunWithoutAnswers(t *testing.T) {
	dead := httptest.NewServer(http.NotFoundHandler())
	defer dead.Close()
	err := Run(context.Background(), Config{IndexerURL: dead.URL, APIURL: dead.URL, Every: 10 * time.Millisecond,
		Duration: 50 * time.Millisecond, Dir: t.TempDir()})
	if !errors.Is(err, ErrNoSamples) {
		t.Fatalf("%v, want ErrNoSamples", err)
	}
}
