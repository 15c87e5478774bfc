// Package ingesttest runs the ingest pipeline for tests that need a keyspace holding a
// chain, and keeps its progress lines out of their output.
package ingesttest

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Quiet is a logger that drops every line: the pipeline's progress lines are noise in
// test and benchmark output.
var Quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// Sim ingests milestones 1..n of src into st (the pipeline logging to Quiet), failing
// the test when the run fails or takes longer than five minutes.
func Sim(t testing.TB, st *store.Store, src *sim.Sim, n uint32) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := ingest.New(src, st, ingest.Config{StopAt: n}, nil, Quiet).Run(ctx); err != nil {
		t.Fatalf("ingest: %v", err)
	}
}
