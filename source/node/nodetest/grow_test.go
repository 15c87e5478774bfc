package nodetest_test

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/source/node"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

// A node that grows the simulated chain one milestone at a time (GrowSim) and forgets
// the oldest (Forget) serves the node source what the simulator gives: the new tip, the
// milestones it still holds, verified and equal to the simulator's (their spent outputs
// created in forgotten milestones still served), and refuses the forgotten ones as not
// held. It listens where it is told (Listen).
func TestGrowingNode(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	opts := sim.Options{Seed: 5, MessagesPerMilestone: 30, TransactionRatio: 0.5}
	set, err := nodetest.FromSim(ctx, sim.New(opts), 1, 4)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fake, err := nodetest.Listen(set, ln)
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	if fake.URL() != "http://"+ln.Addr().String() {
		t.Fatalf("URL %s, listener %s", fake.URL(), ln.Addr())
	}
	opts.Retain = 1 // asked in order only
	grower := sim.New(opts)
	if _, err := grower.Milestone(ctx, 4); err != nil {
		t.Fatal(err)
	}
	for want := uint32(5); want <= 16; want++ {
		if got, err := fake.GrowSim(ctx, grower); err != nil || got != want {
			t.Fatalf("GrowSim: %d, %v; want %d", got, err, want)
		}
	}
	if err := fake.Forget(10); err != nil {
		t.Fatal(err)
	}
	checkGrown(t, ctx, fake, opts, 11, 16)
}

// checkGrown reads the node through a fresh node source: tip last, oldest first,
// first..last as the simulator makes them, first-1 not held.
func checkGrown(t *testing.T, ctx context.Context, fake *nodetest.Server, opts sim.Options, first, last uint32) {
	t.Helper()
	keys := sim.Network().Keys
	ns, err := node.New(node.Config{URL: fake.URL(), Keys: &keys})
	if err != nil {
		t.Fatal(err)
	}
	tip, err := ns.Latest(ctx)
	if err != nil || tip != last {
		t.Fatalf("latest %d, %v; want %d", tip, err, last)
	}
	oldest, err := ns.Oldest(ctx)
	if err != nil || oldest != first {
		t.Fatalf("oldest %d, %v; want %d", oldest, err, first)
	}
	net, err := ns.Network(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := sim.New(opts)
	for i := first; i <= last; i++ {
		vm, err := ns.Milestone(ctx, i)
		if err != nil {
			t.Fatalf("milestone %d: %v", i, err)
		}
		got := vm.Confirmed()
		if _, err := chain.Verify(got, net); err != nil {
			t.Fatalf("milestone %d: %v", i, err)
		}
		w, err := want.Confirmed(ctx, i)
		if err != nil {
			t.Fatal(err)
		}
		sameMilestone(t, got, w)
	}
	if _, err := ns.Milestone(ctx, first-1); !errors.Is(err, source.ErrNotHeld) {
		t.Fatalf("forgotten milestone %d: %v; want not held", first-1, err)
	}
}
