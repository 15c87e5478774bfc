package node

import (
	"bytes"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

// Both real milestones come back whole: verified against Shimmer's keys, every block
// with the node's bytes in white-flag order with its verdict, and the ledger changes of
// the data file (consumed outputs created before 17339 fetched from /outputs).
func TestMilestonesFromTheNode(t *testing.T) {
	_, set, s, ctx, net := sourceOnFakeNode(t)
	if net.Name != "shimmer" || net.HRP != "smr" || net.Params.TokenSupply != set.Protocol.TokenSupply ||
		net.Keys.Threshold != 7 || len(net.Keys.Ranges) != 10 {
		t.Fatalf("network %+v", net)
	}
	if tip, err := s.Latest(ctx); err != nil || tip != 17340 {
		t.Fatalf("latest %d, %v", tip, err)
	}
	if oldest, err := s.Oldest(ctx); err != nil || oldest != 17339 {
		t.Fatalf("oldest %d, %v", oldest, err)
	}
	for _, index := range []uint32{17339, 17340} {
		vm, err := s.Milestone(ctx, index)
		if err != nil {
			t.Fatal(err)
		}
		cm := vm.Confirmed()
		if _, err := chain.Verify(cm, net); err != nil {
			t.Fatalf("milestone %d: %v", index, err)
		}
		checkAgainstData(t, cm, set.Milestones[index])
	}
}

func checkAgainstData(t *testing.T, cm *chain.ConfirmedMilestone, want *realdata.Milestone) {
	t.Helper()
	if cm.MilestoneID != want.MilestoneID || !bytes.Equal(cm.Milestone.Encode(), want.Payload) ||
		cm.Timestamp != time.Unix(int64(want.Timestamp), 0).UTC() || len(cm.Messages) != len(want.Cone) {
		t.Fatalf("milestone %d: header or cone size (%d blocks, want %d)", cm.Index, len(cm.Messages), len(want.Cone))
	}
	for i, b := range want.Cone {
		rm := cm.Messages[i]
		if rm.ID != b.ID || !bytes.Equal(rm.Raw, b.Raw) || rm.InclusionState.String() != b.InclusionState ||
			uint8(rm.ConflictReason) != b.ConflictReason {
			t.Fatalf("milestone %d white-flag %d: %s %s, want %s %s", cm.Index, i, rm.ID, rm.InclusionState, chain.MessageID(b.ID), b.InclusionState)
		}
	}
	checkCreated(t, cm, want.Created)
	checkConsumed(t, cm, want.Consumed)
}

func checkCreated(t *testing.T, cm *chain.ConfirmedMilestone, want []realdata.Output) {
	t.Helper()
	checkOutputs(t, cm, "created", cm.Created, want, func(lo chain.LedgerOutput) chain.OutputID { return lo.OutputID },
		func(o realdata.Output) chain.OutputID { return o.OutputID },
		func(lo chain.LedgerOutput, o realdata.Output) bool {
			return bytes.Equal(chain.EncodeOutput(lo.Output), o.Raw) && lo.MessageID == o.BlockID &&
				lo.MilestoneIndex == o.Booked && lo.Timestamp.Unix() == int64(o.BookedTimestamp)
		})
}

func checkConsumed(t *testing.T, cm *chain.ConfirmedMilestone, want []realdata.Spent) {
	t.Helper()
	checkOutputs(t, cm, "consumed", cm.Consumed, want, func(ls chain.LedgerSpent) chain.OutputID { return ls.OutputID },
		func(sp realdata.Spent) chain.OutputID { return sp.OutputID },
		func(ls chain.LedgerSpent, sp realdata.Spent) bool {
			return bytes.Equal(chain.EncodeOutput(ls.Output), sp.Raw) && ls.MessageID == sp.BlockID &&
				ls.MilestoneIndex == sp.Booked && ls.SpentBy == sp.SpentBy && ls.SpentMilestoneIndex == sp.Spent &&
				ls.SpentTimestamp.Unix() == int64(sp.SpentTimestamp)
		})
}

// checkOutputs: the milestone's outputs of a kind (what) are the data's, by output ID,
// each as same says.
func checkOutputs[G, W any](t *testing.T, cm *chain.ConfirmedMilestone, what string, got []G, want []W,
	idOf func(G) chain.OutputID, wantID func(W) chain.OutputID, same func(G, W) bool) {
	t.Helper()
	byID := map[chain.OutputID]G{}
	for _, g := range got {
		byID[idOf(g)] = g
	}
	for _, w := range want {
		if g, ok := byID[wantID(w)]; !ok || !same(g, w) {
			t.Fatalf("milestone %d: %s %s differs from the data: %+v", cm.Index, what, wantID(w), g)
		}
	}
	if len(byID) != len(want) {
		t.Fatalf("milestone %d: %d %s, the data %d", cm.Index, len(byID), what, len(want))
	}
}
