package simnode_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cmd/simnode/internal/simnode"
	"github.com/stardust-indexer/stardust-indexer/source/node"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

// A node started at an address of its choosing grows one milestone per interval while it
// runs and keeps only the newest Retain; the project's node source, given the keys of
// KeysJSON, reads its /info (network, tip, oldest) and its newest milestone, which
// verifies and is the simulator's.
func TestNodeGrowsAndPrunes(t *testing.T) {
	const retain = 6
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	opts := sim.Options{Seed: 9, MessagesPerMilestone: 12, TransactionRatio: 0.5, MilestoneInterval: time.Second}
	n, err := simnode.Start(ctx, simnode.Config{Addr: "127.0.0.1:0", Every: 5 * time.Millisecond, Backfill: 3,
		Retain: retain, Sim: opts})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	running, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- n.Run(running) }()
	for n.Confirmed() < 3+2*retain {
		time.Sleep(5 * time.Millisecond)
	}
	stop()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	tip := n.Confirmed()
	ns := nodeSource(t, n.URL())
	checkInfo(t, ctx, ns, tip, tip-retain+1)
	vm, err := ns.Milestone(ctx, tip)
	if err != nil {
		t.Fatal(err)
	}
	cm := vm.Confirmed()
	net, err := ns.Network(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chain.Verify(cm, net); err != nil {
		t.Fatalf("milestone %d: %v", tip, err)
	}
	want, err := sim.New(opts).Confirmed(ctx, tip)
	if err != nil {
		t.Fatal(err)
	}
	if cm.MilestoneID != want.MilestoneID || len(cm.Messages) != len(want.Messages) || len(cm.Created) != len(want.Created) {
		t.Fatalf("milestone %d: %s with %d messages, want %s with %d", tip, cm.MilestoneID, len(cm.Messages),
			want.MilestoneID, len(want.Messages))
	}
}

// nodeSource is the project's node source on url with the keys KeysJSON gives, which
// must be the simulated network's.
func nodeSource(t *testing.T, url string) *node.Source {
	t.Helper()
	doc, err := simnode.KeysJSON()
	if err != nil {
		t.Fatal(err)
	}
	keys, err := chain.ParseMilestoneKeys(doc)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(keys, sim.Network().Keys) {
		t.Fatalf("KeysJSON gives %+v, want the simulated network's", keys)
	}
	ns, err := node.New(node.Config{URL: url, Keys: &keys})
	if err != nil {
		t.Fatal(err)
	}
	return ns
}

// checkInfo: the node's /info, through the node source, names the simulated network, tip
// as its newest milestone and oldest as the oldest it holds.
func checkInfo(t *testing.T, ctx context.Context, ns *node.Source, tip, oldest uint32) {
	t.Helper()
	net, err := ns.Network(ctx)
	if err != nil || net.Name != sim.NetworkName {
		t.Fatalf("network %q, %v; want %q", net.Name, err, sim.NetworkName)
	}
	if latest, err := ns.Latest(ctx); err != nil || latest != tip {
		t.Fatalf("latest %d, %v; want %d", latest, err, tip)
	}
	if got, err := ns.Oldest(ctx); err != nil || got != oldest {
		t.Fatalf("oldest %d, %v; want %d", got, err, oldest)
	}
}

// A backfill below 2 or a retain window of 1 is refused by name.
func TestConfigRefused(t *testing.T) {
	for _, cfg := range []simnode.Config{{Addr: "127.0.0.1:0", Backfill: 1}, {Addr: "127.0.0.1:0", Backfill: 5, Retain: 1}} {
		if _, err := simnode.Start(context.Background(), cfg); !errors.Is(err, simnode.ErrConfig) {
			t.Errorf("%+v: %v; want ErrConfig", cfg, err)
		}
	}
}
