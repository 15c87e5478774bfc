package sim

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Every generated milestone must pass the ingest's structural checks,
// including with milestones far enough apart to span several UTC days.
func TestEveryMilestoneValidates(t *testing.T) {
	s := New(Options{Seed: 11, Tip: 300, MilestoneInterval: 20 * time.Minute, FirstIndex: 1000})
	ms := milestones(t, s, 300)
	days := make(map[string]bool)
	for _, cm := range ms {
		if err := chain.Validate(cm); err != nil {
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
		{FaultUnknownInput, ".payload.inputs[0]", "unknown input"},
		{FaultOversized, "messages[", "oversized"},
		{FaultMalformedID, "messages[0].id", "does not match"},
	}
	for _, c := range cases {
		t.Run(c.fault.String(), func(t *testing.T) {
			s := New(Options{Seed: 2, Tip: 12, Faults: map[uint32]Fault{10: c.fault}})
			ms := milestones(t, s, 12)
			for _, cm := range ms {
				err := chain.Validate(cm)
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
	if err := chain.Validate(cm); !errors.Is(err, chain.ErrMalformedID) {
		t.Fatalf("err = %v, want chain.ErrMalformedID", err)
	}
}

// A fault in the very first milestone (nothing spendable yet) still bites.
func TestFaultInGenesisMilestone(t *testing.T) {
	s := New(Options{Seed: 2, Tip: 1, Faults: map[uint32]Fault{1: FaultUnknownInput}})
	if err := chain.Validate(milestones(t, s, 1)[0]); err == nil {
		t.Fatal("faulty genesis milestone validated")
	}
}
