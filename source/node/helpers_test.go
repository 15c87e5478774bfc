package node

import (
	"context"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
)

// fakeNode starts the fake Hornet node over the real Shimmer data.
func fakeNode(t testing.TB) (*nodetest.Server, *realdata.Set) { return nodetest.Start(t) }

// newSource is a source on n with quick retries.
func newSource(t testing.TB, n *nodetest.Server, mod ...func(*Config)) *Source {
	t.Helper()
	cfg := Config{URL: n.URL(), Attempts: 3, Timeout: 5 * time.Second}
	for _, m := range mod {
		m(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}
