package sim

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
)

// Every generated milestone must pass the ingest's structural checks,
// including with milestones far enough apart to span several UTC days.
func TestEveryMilestoneValidates(t *testing.T) {
	s := New(Options{Seed: 11, Tip: 300, MilestoneInterval: 20 * time.Minute, FirstIndex: 1000})
	ms := milestones(t, s, 300)
	days := make(map[string]bool)
	for _, cm := range ms {
		if _, err := chain.Verify(cm, Network()); err != nil {
			t.Fatalf("milestone %d: %v", cm.Index, err)
		}
		days[cm.Timestamp.UTC().Format(time.DateOnly)] = true
	}
	if len(days) < 4 {
		t.Fatalf("300 milestones 20m apart span %d UTC days, want 4+", len(days))
	}
	if ms[0].Index != 1000 || !ms[0].Timestamp.Equal(s.Options().Genesis) {
		t.Fatalf("first milestone %d at %s", ms[0].Index, ms[0].Timestamp)
	}
	for i := 1; i < len(ms); i++ {
		if ms[i].PreviousMilestoneID != ms[i-1].MilestoneID {
			t.Fatalf("milestone %d does not link to its predecessor", ms[i].Index)
		}
		if got := ms[i].Timestamp.Sub(ms[i-1].Timestamp); got != 20*time.Minute {
			t.Fatalf("milestone interval %v", got)
		}
	}
}

func TestFaultsFailValidation(t *testing.T) {
	cases := []struct {
		fault         Fault
		field, reason string
	}{
		{FaultUnknownInput, ".payload.essence.inputs[0]", "unknown input"},
		{FaultOversized, "messages[", "oversized"},
		{FaultMalformedID, "messages[0].id", "does not match"},
		{FaultBadSignature, "milestone.signatures[0]", "invalid signature"},
		{FaultIncompleteCone, "milestone.inclusionMerkleRoot", "messages give"},
	}
	for _, c := range cases {
		t.Run(c.fault.String(), func(t *testing.T) {
			s := New(Options{Seed: 2, Tip: 12, Faults: map[uint32]Fault{10: c.fault}})
			ms := milestones(t, s, 12)
			for _, cm := range ms {
				_, err := chain.Verify(cm, Network())
				if cm.Index != 10 {
					if err != nil {
						t.Fatalf("healthy milestone %d: %v", cm.Index, err)
					}
					continue
				}
				var ve *chain.ValidationError
				if !errors.As(err, &ve) || !strings.Contains(ve.Field, c.field) || !strings.Contains(ve.Reason, c.reason) {
					t.Fatalf("faulty milestone: %v; want field ~%q reason ~%q", err, c.field, c.reason)
				}
			}
		})
	}
}

func TestMalformedIDWrapsSentinel(t *testing.T) {
	s := New(Options{Seed: 2, Tip: 3, Faults: map[uint32]Fault{2: FaultMalformedID}})
	cm := milestones(t, s, 3)[1]
	if _, err := chain.Verify(cm, Network()); !errors.Is(err, chain.ErrMalformedID) {
		t.Fatalf("err = %v, want chain.ErrMalformedID", err)
	}
}

// The sim serves, as a source, only what passes verification: a faulty milestone is
// refused and names what failed; Confirmed still gives it as served.
func TestMilestoneRefusesAFaultyMilestone(t *testing.T) {
	s := New(Options{Seed: 2, Tip: 3, Faults: map[uint32]Fault{2: FaultBadSignature}})
	ctx := context.Background()
	vm, err := s.Milestone(ctx, 1)
	if err != nil || vm.Confirmed().Index != 1 || !vm.For(Network()) {
		t.Fatalf("healthy milestone 1: %v", err)
	}
	_, err = s.Milestone(ctx, 2)
	if !errors.Is(err, source.ErrUnverified) || !errors.Is(err, chain.ErrMilestoneSignature) ||
		!errors.As(err, new(*source.Refusal)) {
		t.Fatalf("faulty milestone 2: %v; want a refusal wrapping source.ErrUnverified and the signature error", err)
	}
	if _, err := s.Confirmed(ctx, 2); err != nil {
		t.Fatalf("Confirmed(2): %v", err)
	}
}

// A fault in the very first milestone (nothing spendable yet) still bites.
func TestFaultInGenesisMilestone(t *testing.T) {
	s := New(Options{Seed: 2, Tip: 1, Faults: map[uint32]Fault{1: FaultUnknownInput}})
	if _, err := chain.Verify(milestones(t, s, 1)[0], Network()); err == nil {
		t.Fatal("faulty genesis milestone validated")
	}
}

// The sim's milestones are real: signed by its coordinator (a changed essence breaks
// the signature), carrying both Merkle roots, and the message carrying milestone M is in
// milestone M+1's cone.
func TestMilestonesAreSignedAndCarriedByTheNext(t *testing.T) {
	s := New(Options{Seed: 4, Tip: 6})
	ms := milestones(t, s, 6)
	truth, err := s.Truth(6)
	if err != nil {
		t.Fatal(err)
	}
	for i, cm := range ms[1:] {
		carried := cm.CarriedMilestones()
		if len(carried) != 1 || carried[ms[i].Index] != truth.Milestones[i].MessageID {
			t.Fatalf("milestone %d carries %v, want milestone %d in %s", cm.Index, carried, ms[i].Index, truth.Milestones[i].MessageID)
		}
	}
	cm := ms[3]
	cm.Milestone.Metadata = []byte("tampered")
	if err := Network().Keys.Verify(cm.Milestone); !errors.Is(err, chain.ErrMilestoneSignature) {
		t.Fatalf("tampered milestone: %v, want a signature error", err)
	}
	other := Network()
	other.Keys.Ranges = other.Keys.Ranges[1:]
	if err := other.Keys.Verify(ms[2].Milestone); !errors.Is(err, chain.ErrMilestoneSignature) {
		t.Fatalf("milestone signed by a key the network does not know: %v", err)
	}
}
