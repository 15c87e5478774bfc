package nodetest

import (
	"context"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

// Start loads the real data and starts a fake node over it for the test (or benchmark),
// closed when it ends.
func Start(tb testing.TB) (*Server, *realdata.Set) {
	tb.Helper()
	set, err := realdata.Load()
	return startOver(tb, set, err), set
}

// StartSim starts a fake node serving the simulated chain's milestones first..last
// (FromSim) for the test (or benchmark), closed when it ends.
func StartSim(tb testing.TB, src *sim.Sim, first, last uint32) *Server {
	tb.Helper()
	set, err := FromSim(context.Background(), src, first, last)
	return startOver(tb, set, err)
}

// startOver starts a server over set unless loading it failed (err), closed when tb ends.
func startOver(tb testing.TB, set *realdata.Set, err error) *Server {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
	s, err := New(set)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.Close)
	return s
}
