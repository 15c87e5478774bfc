package sim

import (
	"bytes"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Truth must agree with what Milestone serves, and report spends only up
// to the milestone asked for.
func TestTruthMatchesMilestones(t *testing.T) {
	opts := Options{Seed: 31, Tip: 120}
	ms := milestones(t, New(opts), 120)
	truth := truthOf(t, opts, 80)
	if truth.UpTo != 80 || len(truth.Milestones) != 80 {
		t.Fatalf("truth covers %d milestones up to %d", len(truth.Milestones), truth.UpTo)
	}
	for _, cm := range ms[:80] {
		checkTruthMilestone(t, truth, cm)
	}
	for _, cm := range ms[80:] {
		for _, ls := range cm.Consumed {
			if o := truth.Outputs[ls.OutputID]; o != nil && o.Spent {
				t.Fatalf("output %s spent in %d is reported spent as of 80", ls.OutputID, cm.Index)
			}
		}
	}
}

func checkTruthMilestone(t *testing.T, truth *Truth, cm *chain.ConfirmedMilestone) {
	t.Helper()
	mt := truth.Milestones[cm.Index-1]
	if mt.MilestoneID != cm.MilestoneID || !bytes.Equal(mt.Payload, cm.Milestone.Encode()) || len(mt.Messages) != len(cm.Messages) {
		t.Fatalf("milestone %d truth differs", cm.Index)
	}
	for _, m := range cm.Messages {
		got := truth.Messages[m.ID]
		if got == nil || got.Milestone != cm.Index || got.WhiteFlagIndex != m.WhiteFlagIndex ||
			got.InclusionState != m.InclusionState || got.ConflictReason != m.ConflictReason || !bytes.Equal(got.Raw, m.Raw) {
			t.Fatalf("message %s truth differs", m.ID)
		}
		for _, p := range m.Message.Parents {
			if !contains(truth.Children[p], m.ID) {
				t.Fatalf("children of %s miss %s", p, m.ID)
			}
		}
		if tag := m.Message.Tag(); len(tag) > 0 && !contains(truth.Tags[string(tag)], m.ID) {
			t.Fatalf("tag %q misses %s", tag, m.ID)
		}
	}
	for _, lo := range cm.Created {
		if o := truth.Outputs[lo.OutputID]; o == nil || o.MilestoneIndex != cm.Index || o.MessageID != lo.MessageID {
			t.Fatalf("created %s missing from truth", lo.OutputID)
		}
	}
	for _, ls := range cm.Consumed {
		o := truth.Outputs[ls.OutputID]
		if !o.Spent || o.SpentBy != ls.SpentBy || o.SpentMilestone != cm.Index || !o.SpentTimestamp.Equal(cm.Timestamp) {
			t.Fatalf("spend of %s missing from truth", ls.OutputID)
		}
		if tt := truth.Transactions[ls.SpentBy]; tt == nil || tt.Milestone != cm.Index {
			t.Fatalf("spending transaction %s not recorded as included in %d", ls.SpentBy, cm.Index)
		}
	}
}

func contains(ids []chain.MessageID, id chain.MessageID) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// Messages reference parents from at most a few milestones back, and the
// milestone's parents reach every message of its cone.
func TestParentsStayRecentAndConeIsClosed(t *testing.T) {
	opts := Options{Seed: 32, Tip: 60}
	truth := truthOf(t, opts, 60)
	for _, mt := range truth.Milestones {
		inMilestone := make(map[chain.MessageID]bool)
		for _, id := range mt.Messages {
			inMilestone[id] = true
			for _, p := range truth.Messages[id].Message.Parents {
				if pm := truth.Messages[p]; pm != nil && mt.Index-pm.Milestone > recentMilestones {
					t.Fatalf("message %s approves %s from milestone %d", id, p, pm.Milestone)
				}
			}
		}
		mp, err := chain.DecodeMilestonePayload(mt.Payload)
		if err != nil {
			t.Fatal(err)
		}
		reached := make(map[chain.MessageID]bool)
		for _, p := range mp.Parents {
			walk(truth, p, inMilestone, reached)
		}
		if len(reached) != len(mt.Messages) {
			t.Fatalf("milestone %d: cone reaches %d of %d messages", mt.Index, len(reached), len(mt.Messages))
		}
	}
}

func walk(truth *Truth, id chain.MessageID, within, seen map[chain.MessageID]bool) {
	if !within[id] || seen[id] {
		return
	}
	seen[id] = true
	for _, p := range truth.Messages[id].Message.Parents {
		walk(truth, p, within, seen)
	}
}
