package soak

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/loadtest"
)

type recordingPauser struct {
	log    *[]string
	paused *atomic.Bool
}

func (p recordingPauser) Pause() error {
	p.paused.Store(true)
	*p.log = append(*p.log, "pause")
	return nil
}
func (p recordingPauser) Resume() error {
	p.paused.Store(false)
	*p.log = append(*p.log, "resume")
	return nil
}

// Each round runs the mix once while the indexer runs and once paused, resumes ingest
// after the paused phase, merges each kind's latencies across rounds, and rates the
// indexer over the ingesting phases only.
func TestCompareAlternatesAndMerges(t *testing.T) {
	var milestone atomic.Int64
	indexer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, "indexer_last_milestone %d\nindexer_write_limit 16\n", milestone.Load())
	}))
	defer indexer.Close()
	var log []string
	var paused atomic.Bool
	run := func(_ context.Context, cfg loadtest.OpenConfig) (*loadtest.OpenReport, error) {
		if paused.Load() {
			log = append(log, "run paused")
			return &loadtest.OpenReport{Phase: loadtest.PhaseOfLatencies("p", cfg.Duration, msec(1), msec(2), msec(3), msec(4))}, nil
		}
		log = append(log, "run ingesting")
		milestone.Add(50)
		return &loadtest.OpenReport{Phase: loadtest.PhaseOfLatencies("i", cfg.Duration, msec(2), msec(4), msec(6), msec(40))}, nil
	}
	c, err := Compare(context.Background(), CompareConfig{Load: loadtest.OpenConfig{Duration: 10 * time.Millisecond},
		Rounds: 2, IndexerURL: indexer.URL, Pause: recordingPauser{&log, &paused}, Run: run})
	if err != nil {
		t.Fatal(err)
	}
	want := "run ingesting,pause,run paused,resume,run ingesting,pause,run paused,resume"
	if got := strings.Join(log, ","); got != want {
		t.Errorf("order %s, want %s", got, want)
	}
	if c.Ingesting.Requests != 8 || c.Paused.Requests != 8 || c.Ingesting.P99 != msec(40) || c.Paused.P99 != msec(4) {
		t.Errorf("merged %+v / %+v", c.Ingesting, c.Paused)
	}
	if c.MilestonesPerSec <= 0 || c.WriteLimit != 16 {
		t.Errorf("indexer rate %g, limit %g", c.MilestonesPerSec, c.WriteLimit)
	}
	var b strings.Builder
	if err := WriteComparison(&b, c); err != nil || !strings.Contains(b.String(), "| ingesting ÷ paused | | 2.00 | 10.00 |") {
		t.Errorf("table (%v):\n%s", err, b.String())
	}
}

// A pause that cannot be undone, or an indexer without metrics, ends the comparison
// with the cause named.
func TestCompareRefusals(t *testing.T) {
	if _, err := Compare(context.Background(), CompareConfig{Rounds: 0}); err == nil {
		t.Error("no rounds: want a refusal")
	}
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "go_goroutines 3") }))
	defer silent.Close()
	var log []string
	var paused atomic.Bool
	_, err := Compare(context.Background(), CompareConfig{Load: loadtest.OpenConfig{Duration: time.Millisecond}, Rounds: 1,
		IndexerURL: silent.URL, Pause: recordingPauser{&log, &paused},
		Run: func(context.Context, loadtest.OpenConfig) (*loadtest.OpenReport, error) {
			return &loadtest.OpenReport{}, nil
		}})
	if err == nil || !strings.Contains(err.Error(), "no indexer_last_milestone") {
		t.Errorf("err = %v", err)
	}
}

func msec(n int) time.Duration { return time.Duration(n) * time.Millisecond }

// A phase that panics while ingest is paused still resumes it.
func TestComparePanicResumes(t *testing.T) {
	indexer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintln(w, "indexer_last_milestone 5")
	}))
	defer indexer.Close()
	var log []string
	var paused atomic.Bool
	run := func(context.Context, loadtest.OpenConfig) (*loadtest.OpenReport, error) {
		if paused.Load() {
			panic("a phase's panic")
		}
		return &loadtest.OpenReport{}, nil
	}
	func() {
		defer func() { _ = recover() }()
		_, _ = Compare(context.Background(), CompareConfig{Load: loadtest.OpenConfig{Duration: time.Millisecond}, Rounds: 1,
			IndexerURL: indexer.URL, Pause: recordingPauser{&log, &paused}, Run: run})
	}()
	if paused.Load() || strings.Join(log, ",") != "pause,resume" {
		t.Fatalf("after the panic: paused %t, calls %v", paused.Load(), log)
	}
}
