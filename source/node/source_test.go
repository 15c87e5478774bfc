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
		cm, err := s.Milestone(ctx, index)
		if err != nil {
			t.Fatal(err)
		}
		if err := chain.Verify(cm, net); err != nil {
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
	got := map[chain.OutputID]chain.LedgerOutput{}
	for _, lo := range cm.Created {
		got[lo.OutputID] = lo
	}
	for _, o := range want {
		lo, ok := got[o.OutputID]
		if !ok || !bytes.Equal(chain.EncodeOutput(lo.Output), o.Raw) || lo.MessageID != o.BlockID ||
			lo.MilestoneIndex != o.Booked || lo.Timestamp.Unix() != int64(o.BookedTimestamp) {
			t.Fatalf("milestone %d: created %s differs from the data", cm.Index, chain.OutputID(o.OutputID))
		}
	}
	if len(got) != len(want) {
		t.Fatalf("milestone %d: %d created, the data %d", cm.Index, len(got), len(want))
	}
}

func checkConsumed(t *testing.T, cm *chain.ConfirmedMilestone, want []realdata.Spent) {
	t.Helper()
	got := map[chain.OutputID]chain.LedgerSpent{}
	for _, ls := range cm.Consumed {
		got[ls.OutputID] = ls
	}
	for _, sp := range want {
		ls, ok := got[sp.OutputID]
		if !ok || !bytes.Equal(chain.EncodeOutput(ls.Output), sp.Raw) || ls.MessageID != sp.BlockID ||
			ls.MilestoneIndex != sp.Booked || ls.SpentBy != sp.SpentBy || ls.SpentMilestoneIndex != sp.Spent ||
			ls.SpentTimestamp.Unix() != int64(sp.SpentTimestamp) {
			t.Fatalf("milestone %d: consumed %s differs from the data: %+v", cm.Index, chain.OutputID(sp.OutputID), ls)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("milestone %d: %d consumed, the data %d", cm.Index, len(got), len(want))
	}
}
