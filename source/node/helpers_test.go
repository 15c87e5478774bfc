package node

import (
	"context"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
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

// sourceOnFakeNode is a source on a fake node over the real Shimmer data, and the network
// the source read from it.
func sourceOnFakeNode(t *testing.T) (*nodetest.Server, *realdata.Set, *Source, context.Context, chain.Network) {
	t.Helper()
	n, set := fakeNode(t)
	s := newSource(t, n)
	ctx := ctxT(t)
	net, err := s.Network(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return n, set, s, ctx, net
}

// checkServed: the source serves milestone index as the data holds it.
func checkServed(t *testing.T, s *Source, set *realdata.Set, index uint32) {
	t.Helper()
	vm, err := s.Milestone(ctxT(t), index)
	if err != nil {
		t.Fatal(err)
	}
	cm := vm.Confirmed()
	checkAgainstData(t, cm, set.Milestones[index])
}
