package ingest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// familyWriter is one way of running the pipeline in BenchmarkFamilies.
type familyWriter struct {
	name string
	rows RowsFunc
}

// BenchmarkFamilies measures what Chronicle's families cost the ingest: the pipeline
// (default Config) over BenchmarkIngest's sim chain into fresh keyspaces of the test
// node, with the analytics rows as `indexer run` writes them (families on) and without
// the families' rows (analytics.RowsWith(analytics.Options{}): families off), in turn
// over benchRounds rounds, each round starting with the other. The node is warmed up
// first. Printed: every run, then per round and as the median over rounds the on ÷ off
// ratio of rows/s (the figure the goal names) and of milestones/s (what an operator
// waits for: the families add rows per milestone, so rows/s alone flatters them).
func BenchmarkFamilies(b *testing.B) {
	testcontainers.SkipShort(b)
	ctx := context.Background()
	src := sim.New(sim.Options{Seed: 42, Tip: benchTip, MessagesPerMilestone: 12, MilestoneInterval: 20 * time.Minute})
	rows := prebuild(b, src) // also generates the chain, so the pipeline's fetches only decode
	n := benchNode{label: "test", name: "test node"}
	writers := []familyWriter{{"families on", analytics.Rows}, {"families off", analytics.RowsWith(analytics.Options{})}}
	b.ResetTimer()
	b.StopTimer() // the timer runs only while a pipeline writes
	for range b.N {
		warmUp(ctx, b, rows, n)
		runs := make([][]writerFigures, len(writers)) // runs[writer][round]
		for round := range benchRounds {
			for k := range writers {
				w := (k + round) % len(writers)
				f := benchPipelineRows(ctx, b, src, n, Config{}, writers[w].rows)
				f.name = writers[w].name
				runs[w] = append(runs[w], f)
			}
		}
		rowsRatio, msRatio := printFamilies(runs)
		b.ReportMetric(rowsRatio, "on/off-rows/s")
		b.ReportMetric(msRatio, "on/off-milestones/s")
	}
}

// printFamilies prints every run and the on ÷ off ratios, and returns their medians
// over the rounds (rows/s, milestones/s).
func printFamilies(runs [][]writerFigures) (rowsRatio, msRatio float64) {
	fmt.Printf("BenchmarkFamilies: %d milestones, pipeline with default Config on the test node, families on and off in turn, %d rounds\n%-14s %5s %8s %8s %10s %12s %11s %11s\n",
		benchTip, benchRounds, "writer", "round", "rows", "seconds", "rows/s", "milestones/s", "p50", "p99")
	var byRows, byMs []float64
	for round := range benchRounds {
		for _, w := range runs {
			f := w[round]
			fmt.Printf("%-14s %5d %8d %8.2f %10.0f %12.1f %11s %11s\n", f.name, round+1, f.rows, f.took.Seconds(),
				f.rowsPerSec(), float64(benchTip)/f.took.Seconds(), f.p50.Round(10*time.Microsecond), f.p99.Round(10*time.Microsecond))
		}
		on, off := runs[0][round], runs[1][round]
		byRows = append(byRows, on.rowsPerSec()/off.rowsPerSec())
		byMs = append(byMs, off.took.Seconds()/on.took.Seconds())
	}
	on, off := runs[0][0], runs[1][0]
	fmt.Printf("rows per milestone: on %.1f, off %.1f\n", float64(on.rows)/float64(benchTip), float64(off.rows)/float64(benchTip))
	fmt.Printf("on ÷ off, rows/s:        median %.2f (rounds %s)\n", median(byRows), twoPlaces(byRows))
	fmt.Printf("on ÷ off, milestones/s:  median %.2f (rounds %s)\n", median(byMs), twoPlaces(byMs))
	return median(byRows), median(byMs)
}

// BenchmarkFamilyRows builds the analytics rows of BenchmarkIngest's sim chain (no
// database) with the families and without: what computing the families costs the
// process per milestone, apart from writing their rows.
func BenchmarkFamilyRows(b *testing.B) {
	ctx := context.Background()
	src := sim.New(sim.Options{Seed: 42, Tip: benchTip, MessagesPerMilestone: 12, MilestoneInterval: 20 * time.Minute})
	st := store.New(nil, benchChunk) // RangeID and HRP only
	st.SetNetwork(store.RecordOf(sim.Network()))
	cms := make([]*chain.ConfirmedMilestone, 0, benchTip)
	for i := uint32(1); i <= benchTip; i++ {
		cm, err := src.Confirmed(ctx, i)
		if err != nil {
			b.Fatal(err)
		}
		cms = append(cms, cm)
	}
	for _, w := range []familyWriter{{"families_on", analytics.Rows}, {"families_off", analytics.RowsWith(analytics.Options{})}} {
		b.Run(w.name, func(b *testing.B) {
			for range b.N {
				for _, cm := range cms {
					w.rows(cm, st)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(cms)), "µs/milestone")
		})
	}
}
