package nodetest

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

// Start loads the real data and starts a fake node over it for the test (or benchmark),
// closed when it ends.
func Start(tb testing.TB) (*Server, *realdata.Set) {
	tb.Helper()
	set, err := realdata.Load()
	if err != nil {
		tb.Fatal(err)
	}
	s, err := New(set)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.Close)
	return s, set
}
