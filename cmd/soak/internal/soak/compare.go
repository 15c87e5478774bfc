package soak

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"syscall"
	"time"

	"github.com/stardust-indexer/stardust-indexer/loadtest"
)

// CompareConfig is a reads-during-ingest comparison: the same open-loop read mix, in
// rounds, once while the indexer ingests and once while ingest is paused.
type CompareConfig struct {
	Load       loadtest.OpenConfig // the read mix; its Duration is one phase's
	Rounds     int
	IndexerURL string        // the indexer's ops listener: its milestone and write limit, read while it runs
	Settle     time.Duration // after a resume, before the next phase: the indexer catches up
	Pause      Pauser
	Client     *http.Client
	Log        io.Writer
	// Run runs one phase of the mix (nil: loadtest.RunOpen).
	Run func(context.Context, loadtest.OpenConfig) (*loadtest.OpenReport, error)
}

// Pauser stops ingest and starts it again.
type Pauser interface {
	Pause() error
	Resume() error
}

// Comparison is what a comparison measured.
type Comparison struct {
	Ingesting, Paused loadtest.RouteStats
	Rounds            int
	Phase             time.Duration
	MilestonesPerSec  float64 // the indexer's rate during the ingesting phases
	WriteLimit        float64 // the indexer's write limit at the end of the last ingesting phase
}

// Compare runs Rounds rounds of an ingesting phase and a paused phase and merges each
// kind's latencies. Ingest is always resumed before it returns.
func Compare(ctx context.Context, cfg CompareConfig) (Comparison, error) {
	if cfg.Rounds < 1 || cfg.Load.Duration <= 0 || cfg.Pause == nil {
		return Comparison{}, fmt.Errorf("soak compare: %d rounds of %s: want at least one round, a phase and a pauser",
			cfg.Rounds, cfg.Load.Duration)
	}
	cfg.defaults()
	out := Comparison{Rounds: cfg.Rounds, Phase: cfg.Load.Duration}
	var ingesting, paused []loadtest.Phase
	var milestones float64
	var ingestTime time.Duration
	for round := 1; round <= cfg.Rounds; round++ {
		in, err := cfg.ingestingPhase(ctx)
		if err != nil {
			return out, fmt.Errorf("soak compare: round %d, ingesting: %w", round, err)
		}
		ingesting, milestones, ingestTime, out.WriteLimit = append(ingesting, in.phase), milestones+in.milestones,
			ingestTime+in.took, in.limit
		ph, err := cfg.pausedPhase(ctx)
		if err != nil {
			return out, fmt.Errorf("soak compare: round %d, paused: %w", round, err)
		}
		paused = append(paused, ph)
		fmt.Fprintf(cfg.Log, "round %d: ingesting p99 %s, paused p99 %s\n", round, ingesting[round-1].Total.P99, ph.Total.P99)
	}
	out.Ingesting, out.Paused = loadtest.Merge("ingesting", ingesting...), loadtest.Merge("paused", paused...)
	out.MilestonesPerSec = milestones / ingestTime.Seconds()
	return out, nil
}

func (cfg *CompareConfig) defaults() {
	if cfg.Run == nil {
		cfg.Run = loadtest.RunOpen
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: 5 * time.Second}
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
}

// ingestPhase is one ingesting phase: the reads, and what the indexer did meanwhile.
type ingestPhase struct {
	phase      loadtest.Phase
	milestones float64 // written during the phase
	limit      float64 // the write limit at its end
	took       time.Duration
}

// ingestingPhase runs the mix while the indexer runs, and counts the milestones it
// wrote meanwhile.
func (cfg *CompareConfig) ingestingPhase(ctx context.Context) (ingestPhase, error) {
	before, err := cfg.indexer(ctx)
	if err != nil {
		return ingestPhase{}, err
	}
	start := time.Now()
	rep, err := cfg.Run(ctx, cfg.Load)
	if err != nil {
		return ingestPhase{}, err
	}
	after, err := cfg.indexer(ctx)
	if err != nil {
		return ingestPhase{}, err
	}
	return ingestPhase{phase: rep.Phase, milestones: after.milestone - before.milestone, limit: after.limit,
		took: time.Since(start)}, nil
}

// pausedPhase runs the mix with ingest paused, then resumes it (even when the run
// panics) and lets it settle.
func (cfg *CompareConfig) pausedPhase(ctx context.Context) (loadtest.Phase, error) {
	rep, err := cfg.runPaused(ctx)
	if err != nil {
		return loadtest.Phase{}, err
	}
	select {
	case <-time.After(cfg.Settle):
	case <-ctx.Done():
		return loadtest.Phase{}, ctx.Err()
	}
	return rep.Phase, nil
}

func (cfg *CompareConfig) runPaused(ctx context.Context) (rep *loadtest.OpenReport, err error) {
	if err := cfg.Pause.Pause(); err != nil {
		return nil, fmt.Errorf("pausing ingest: %w", err)
	}
	defer func() {
		if resumeErr := cfg.Pause.Resume(); resumeErr != nil {
			err = errors.Join(err, fmt.Errorf("resuming ingest: %w", resumeErr))
		}
	}()
	return cfg.Run(ctx, cfg.Load)
}

type indexerState struct{ milestone, limit float64 }

func (cfg *CompareConfig) indexer(ctx context.Context) (indexerState, error) {
	all, err := fetch(ctx, cfg.Client, cfg.IndexerURL+"/metrics")
	if err != nil {
		return indexerState{}, fmt.Errorf("the indexer's metrics: %w", err)
	}
	ms, ok := value(all, "indexer_last_milestone")
	if !ok {
		return indexerState{}, errors.New("the indexer's metrics have no indexer_last_milestone")
	}
	limit, _ := value(all, "indexer_write_limit")
	return indexerState{milestone: ms, limit: limit}, nil
}

// WriteComparison prints the comparison as a Markdown table with the ratios.
func WriteComparison(w io.Writer, c Comparison) error {
	ratio := func(a, b time.Duration) string {
		if b <= 0 {
			return "-"
		}
		return fmt.Sprintf("%.2f", float64(a)/float64(b))
	}
	milli := func(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d)/float64(time.Millisecond)) }
	_, err := fmt.Fprintf(w, "Reads during ingest vs with ingest paused: %d rounds of %s each, ingest at %.1f milestones/s "+
		"(write limit %g at the end). Latency in ms from each request's scheduled send time.\n\n"+
		"| phase | requests | p50 | p99 | p999 | max | 5xx | errors |\n|---|---:|---:|---:|---:|---:|---:|---:|\n",
		c.Rounds, c.Phase, c.MilestonesPerSec, c.WriteLimit)
	if err != nil {
		return err
	}
	for _, s := range []loadtest.RouteStats{c.Ingesting, c.Paused} {
		if _, err := fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %s | %d | %d |\n", s.Route, s.Requests, milli(s.P50),
			milli(s.P99), milli(s.P999), milli(s.Max), s.S5xx, s.Errors); err != nil {
			return err
		}
	}
	i, p := c.Ingesting, c.Paused
	_, err = fmt.Fprintf(w, "| ingesting ÷ paused | | %s | %s | %s | %s | | |\n", ratio(i.P50, p.P50), ratio(i.P99, p.P99),
		ratio(i.P999, p.P999), ratio(i.Max, p.Max))
	return err
}

// Signals pauses processes with SIGSTOP and resumes them with SIGCONT: ingest paused
// whole, the node and the indexer both, so that nothing waits to be caught up after.
type Signals []int

// Pause stops the processes, in order.
func (pids Signals) Pause() error { return pids.send(syscall.SIGSTOP, false) }

// Resume continues them, in the reverse order.
func (pids Signals) Resume() error { return pids.send(syscall.SIGCONT, true) }

func (pids Signals) send(sig syscall.Signal, reverse bool) error {
	order := slices.Clone(pids)
	if reverse {
		slices.Reverse(order)
	}
	var errs []error
	for _, pid := range order {
		if err := syscall.Kill(pid, sig); err != nil {
			errs = append(errs, fmt.Errorf("%s to pid %d: %w", sig, pid, err))
		}
	}
	return errors.Join(errs...)
}

// WriteComparisonFile writes the comparison's table to path.
func WriteComparisonFile(path string, c Comparison) error {
	return writeFile(path, func(w io.Writer) error { return WriteComparison(w, c) })
}
