package nodetest_test

import (
	"bytes"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/node"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

// A node serving a simulated chain gives the node source, configured with the simulated
// network's keys, the very milestones the simulator gives: the same cone in white-flag
// order with the same verdicts, and the same ledger changes, which verify. Milestone 1 is
// served but not read: its genesis outputs come from no transaction, so only the outputs
// route gives them to the milestones spending them.
func TestSimulatedChain(t *testing.T) {
	const last = 12
	src := sim.New(sim.Options{Seed: 7, Tip: last, MessagesPerMilestone: 40, TransactionRatio: 0.125})
	fake := nodetest.StartSim(t, src, 1, last)
	keys := sim.Network().Keys
	ns, err := node.New(node.Config{URL: fake.URL(), Keys: &keys})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	net, err := ns.Network(ctx)
	if err != nil || net.Name != sim.NetworkName || net.HRP != sim.HRP || net.Params != sim.Network().Params {
		t.Fatalf("network %+v, %v", net, err)
	}
	for i := uint32(2); i <= last; i++ {
		vm, err := ns.Milestone(ctx, i)
		if err != nil {
			t.Fatal(err)
		}
		got := vm.Confirmed()
		if _, err := chain.Verify(got, net); err != nil {
			t.Fatalf("milestone %d: %v", i, err)
		}
		want, err := src.Confirmed(ctx, i)
		if err != nil {
			t.Fatal(err)
		}
		sameMilestone(t, got, want)
	}
}

func sameMilestone(t *testing.T, got, want *chain.ConfirmedMilestone) {
	t.Helper()
	if got.MilestoneID != want.MilestoneID || len(got.Messages) != len(want.Messages) {
		t.Fatalf("milestone %d: ID or cone size %d, want %d", want.Index, len(got.Messages), len(want.Messages))
	}
	for i, w := range want.Messages {
		g := got.Messages[i]
		if g.ID != w.ID || !bytes.Equal(g.Raw, w.Raw) || g.InclusionState != w.InclusionState || g.ConflictReason != w.ConflictReason {
			t.Fatalf("milestone %d white-flag %d: %s %s, want %s %s", want.Index, i, g.ID, g.InclusionState, w.ID, w.InclusionState)
		}
	}
	if !slices.Equal(outputIDs(got.Created), outputIDs(want.Created)) {
		t.Errorf("milestone %d: created %d outputs, want %d", want.Index, len(got.Created), len(want.Created))
	}
	if !slices.EqualFunc(spent(got.Consumed), spent(want.Consumed), sameSpent) {
		t.Errorf("milestone %d: consumed %d outputs, want %d alike", want.Index, len(got.Consumed), len(want.Consumed))
	}
}

// sameSpent compares a spent output's bytes, creation and spending.
func sameSpent(a, b chain.LedgerSpent) bool {
	return a.OutputID == b.OutputID && a.MessageID == b.MessageID && a.MilestoneIndex == b.MilestoneIndex &&
		a.Timestamp.Equal(b.Timestamp) && a.SpentBy == b.SpentBy && a.SpentMilestoneIndex == b.SpentMilestoneIndex &&
		a.SpentTimestamp.Equal(b.SpentTimestamp) && bytes.Equal(chain.EncodeOutput(a.Output), chain.EncodeOutput(b.Output))
}

func outputIDs(los []chain.LedgerOutput) []chain.OutputID {
	ids := make([]chain.OutputID, len(los))
	for i, lo := range los {
		ids[i] = lo.OutputID
	}
	return sorted(ids)
}

// spent sorts a copy of ls by output ID.
func spent(ls []chain.LedgerSpent) []chain.LedgerSpent {
	out := slices.Clone(ls)
	slices.SortFunc(out, func(a, b chain.LedgerSpent) int { return bytes.Compare(a.OutputID[:], b.OutputID[:]) })
	return out
}

func sorted(ids []chain.OutputID) []chain.OutputID {
	slices.SortFunc(ids, func(a, b chain.OutputID) int { return bytes.Compare(a[:], b[:]) })
	return ids
}
