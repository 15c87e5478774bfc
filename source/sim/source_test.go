package sim

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
)

func TestLatestAndBounds(t *testing.T) {
	ctx := context.Background()
	s := New(Options{Seed: 1, FirstIndex: 50, Tip: 10})
	if tip, err := s.Latest(ctx); err != nil || tip != 59 {
		t.Fatalf("Latest = %d, %v; want 59", tip, err)
	}
	for _, index := range []uint32{0, 49, 60, math.MaxUint32} {
		if _, err := s.Milestone(ctx, index); !errors.Is(err, source.ErrNotFound) {
			t.Errorf("Milestone(%d) err = %v, want ErrNotFound", index, err)
		}
	}
	if _, err := s.Milestone(ctx, 59); err != nil {
		t.Fatal(err)
	}
	if tip, _ := New(Options{}).Latest(ctx); tip != math.MaxUint32 {
		t.Fatalf("unbounded Latest = %d", tip)
	}
}

func TestCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := New(Options{Seed: 1})
	if _, err := s.Milestone(ctx, 5); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if _, err := s.Latest(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Latest err = %v", err)
	}
}

// Unreferenced messages are a subset of the next milestone's, seen between
// the two milestones, and arrive confirmed later.
func TestUnreferencedArriveLater(t *testing.T) {
	ctx := context.Background()
	s := New(Options{Seed: 6, Tip: 20})
	for after := uint32(0); after < 20; after++ {
		pending, err := s.Unreferenced(ctx, after)
		if err != nil {
			t.Fatal(err)
		}
		next, err := s.Confirmed(ctx, after+1)
		if err != nil {
			t.Fatal(err)
		}
		checkPending(t, s, pending, next)
	}
	if pending, err := s.Unreferenced(ctx, 20); err != nil || len(pending) != 0 {
		t.Fatalf("past the tip: %d messages, %v", len(pending), err)
	}
}

func checkPending(t *testing.T, s *Sim, pending []chain.UnreferencedMessage, next *chain.ConfirmedMilestone) {
	t.Helper()
	referenced := make(map[chain.MessageID]bool)
	for _, m := range next.Messages {
		referenced[m.ID] = true
	}
	if len(pending) < len(next.Messages)/2 {
		t.Fatalf("milestone %d: only %d of %d messages pending before it", next.Index, len(pending), len(next.Messages))
	}
	earliest := next.Timestamp.Add(-s.Options().MilestoneInterval)
	for _, m := range pending {
		switch {
		case !referenced[m.ID] || m.Message.MilestoneOf() != nil:
			t.Fatalf("pending %s is not a regular message of milestone %d", m.ID, next.Index)
		case m.EstMilestoneIndex != next.Index:
			t.Fatalf("estimated index %d, want %d", m.EstMilestoneIndex, next.Index)
		case !m.SeenAt.Before(next.Timestamp) || !m.SeenAt.After(earliest):
			t.Fatalf("seen at %s, not between %s and %s", m.SeenAt, earliest, next.Timestamp)
		case chain.MessageIDOf(m.Raw) != m.ID || m.Message == nil:
			t.Fatalf("pending %s: raw bytes do not hash to its id", m.ID)
		}
	}
}

func TestOptionDefaultsAndNegatives(t *testing.T) {
	o := New(Options{}).Options()
	if o.FirstIndex != 1 || o.MessagesPerMilestone != 20 || o.AddressPool != 500 || o.TagPool != 50 ||
		o.LegacyGenesisOutputs != 100 || o.MilestoneInterval.Seconds() != 10 || o.Genesis.Year() != 2022 {
		t.Fatalf("defaults: %+v", o)
	}
	s := New(Options{Seed: 1, Tip: 5, LegacyGenesisOutputs: -1, ConflictRate: -1, ReattachRate: -1})
	for _, cm := range milestones(t, s, 5) {
		// 20 messages, and from the second milestone on the previous milestone's message.
		want := 21
		if cm.Index == 1 {
			want = 20
		}
		if len(cm.Created) != 0 || len(cm.Messages) != want {
			t.Fatalf("milestone %d: %d created, %d messages; want 0 and %d", cm.Index, len(cm.Created), len(cm.Messages), want)
		}
		if _, err := chain.Verify(cm, Network()); err != nil {
			t.Fatal(err)
		}
	}
}
