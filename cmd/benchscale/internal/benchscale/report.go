package benchscale

import (
	"fmt"
	"io"
	"time"

	"github.com/stardust-indexer/stardust-indexer/loadtest"
)

// step is one row of the growth table: the milestones written since the previous row.
type step struct {
	upTo       int // milestones done at the end of the step
	milestones float64
	took       time.Duration
	rows       float64
	p50, p99   time.Duration
	rssBytes   int64
}

func (s step) rowsPerSec() float64 { return s.rows / s.took.Seconds() }

// wall is the wall time per milestone over the step (the pipeline overlaps milestones,
// so this is lower than a milestone's own write latency).
func (s step) wall() time.Duration { return time.Duration(float64(s.took) / s.milestones) }

// newStep compares two snapshots of one indexer process.
func newStep(upTo int, from, to snapshot) step {
	return step{upTo: upTo, milestones: to.milestone - from.milestone, took: to.at.Sub(from.at),
		rows: to.rows - from.rows, p50: intervalQuantile(from, to, 0.5), p99: intervalQuantile(from, to, 0.99),
		rssBytes: to.rssBytes}
}

func printHeader(w io.Writer) {
	fmt.Fprintf(w, "%8s %6s %8s %9s %10s %10s %12s %8s\n", "done", "ms", "seconds", "rows/s", "p50", "p99", "wall/ms", "RSS MB")
}

func (s step) print(w io.Writer) {
	fmt.Fprintf(w, "%8d %6.0f %8.1f %9.0f %10s %10s %12s %8.1f\n", s.upTo, s.milestones, s.took.Seconds(),
		s.rowsPerSec(), s.p50.Round(10*time.Microsecond), s.p99.Round(10*time.Microsecond),
		s.wall().Round(10*time.Microsecond), float64(s.rssBytes)/(1<<20))
}

// slopePer10k fits y = a + b*x by least squares and returns b*10000 as a percentage of
// the fitted value at the first x: how much y grows per 10k milestones, relative to
// where it started. ok is false with fewer than two distinct points.
func slopePer10k(xs []float64, ys []float64) (pct float64, ok bool) {
	n := float64(len(xs))
	if len(xs) < 2 || len(xs) != len(ys) {
		return 0, false
	}
	var sx, sy, sxx, sxy float64
	for i := range xs {
		sx, sy, sxx, sxy = sx+xs[i], sy+ys[i], sxx+xs[i]*xs[i], sxy+xs[i]*ys[i]
	}
	den := n*sxx - sx*sx
	if den == 0 {
		return 0, false
	}
	b := (n*sxy - sx*sy) / den
	a := (sy - b*sx) / n
	start := a + b*xs[0]
	if start <= 0 {
		return 0, false
	}
	return 100 * b * 10000 / start, true
}

// printSlopes reports the growth of per-milestone cost over the run.
func printSlopes(w io.Writer, steps []step) {
	var xs, p50s, walls, rates []float64
	for _, s := range steps {
		xs = append(xs, float64(s.upTo))
		p50s = append(p50s, s.p50.Seconds())
		walls = append(walls, s.wall().Seconds())
		rates = append(rates, s.rowsPerSec())
	}
	for _, f := range []struct {
		name string
		ys   []float64
	}{{"per-milestone write p50", p50s}, {"wall time per milestone", walls}, {"rows/s", rates}} {
		if pct, ok := slopePer10k(xs, f.ys); ok {
			fmt.Fprintf(w, "slope of %s: %+.1f%% per 10k milestones (least squares over %d steps; flat is the goal)\n",
				f.name, pct, len(xs))
		}
	}
}

// printRoutes prints each list route's median at both sizes and their ratio: as
// written, and flushed (with Config.Settle).
func printRoutes(cfg Config, ids *loadtest.IDs, small, large routeTimes) {
	fmt.Fprintf(cfg.Out, "list routes, p50 of %d requests (keys: %d addresses, %d tags found at %d):\n%-32s %10s %10s %7s",
		cfg.Requests, min(keysPerRoute, len(ids.Addresses)), min(keysPerRoute, len(ids.Tags)), cfg.Step,
		"route", fmt.Sprintf("at %d", cfg.Step), fmt.Sprintf("at %d", cfg.N), "ratio")
	if small.settled != nil {
		fmt.Fprintf(cfg.Out, "   flushed: %10s %10s %7s", fmt.Sprintf("at %d", cfg.Step), fmt.Sprintf("at %d", cfg.N), "ratio")
	}
	fmt.Fprintln(cfg.Out)
	cell := func(a, b time.Duration) string {
		return fmt.Sprintf("%10s %10s %7.2f", a.Round(10*time.Microsecond), b.Round(10*time.Microsecond), float64(b)/float64(a))
	}
	for _, rt := range listRoutes(ids, cfg.N) {
		a, b := small.written[rt.name], large.written[rt.name]
		if a <= 0 {
			continue
		}
		line := fmt.Sprintf("%-32s %s", rt.name, cell(a, b))
		if small.settled != nil {
			line += "            " + cell(small.settled[rt.name], large.settled[rt.name])
		}
		fmt.Fprintln(cfg.Out, line)
	}
}
