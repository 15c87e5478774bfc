package node

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

// Milestones asked in order, 8 at once as the pipeline asks, are read ahead and each is
// asked from the node once: whole, as the simulator made it, whether read ahead or not.
func TestReadAheadAsksEachMilestoneOnce(t *testing.T) {
	const last = 60
	src := sim.New(sim.Options{Seed: 11, Tip: last, MessagesPerMilestone: 40, TransactionRatio: 0.125})
	n := nodetest.StartSim(t, src, 1, last)
	keys := sim.Network().Keys
	s := newSource(t, n, func(c *Config) { c.Keys = &keys })
	ctx := ctxT(t)
	if _, err := s.Latest(ctx); err != nil { // the tip bounds the read-ahead
		t.Fatal(err)
	}
	verified := n.Count(nodetest.RouteMilestoneByIndex) // Latest fetched the tip's payload to verify it
	var next atomic.Uint32
	next.Store(1)
	g, gctx := errgroup.WithContext(ctx)
	for range 8 {
		g.Go(func() error {
			for i := next.Add(1); i <= last; i = next.Add(1) {
				if err := sameVerdicts(gctx, s, src, i); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	if got := n.Count(nodetest.RouteMilestoneByIndex) - verified; got != last-1 {
		t.Fatalf("%d milestone requests for %d milestones, want one each", got, last-1)
	}
	if s.ahead.Depth() == 0 {
		t.Fatal("nothing was read ahead")
	}
}

// 429s step the requests-in-flight limit down from where it starts.
func TestTooManyRequestsLowerTheLimit(t *testing.T) {
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		asked.Add(1)
		http.Error(w, "slow down", http.StatusTooManyRequests)
	}))
	defer srv.Close()
	s, err := New(Config{URL: srv.URL, Attempts: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Latest(ctxT(t)); err == nil {
		t.Fatal("a node answering 429 served its status")
	}
	if got := s.members[0].c.gate.limit(); asked.Load() == 0 || got >= startInFlight {
		t.Fatalf("limit %d after %d answers 429, want below %d", got, asked.Load(), startInFlight)
	}
}
