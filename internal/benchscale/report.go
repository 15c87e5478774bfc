package benchscale

import (
	"fmt"
	"io"
	"time"
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
