package sim

import (
	"context"
	"testing"
	"time"
)

// Generating 300 milestones of 20 messages must stay well under a second
// so every package's tests can afford a fresh chain.
func TestGenerationIsFast(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("timing test")
	}
	start := time.Now()
	s := New(Options{Seed: 7, Tip: 300})
	if _, err := s.Confirmed(context.Background(), 300); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > time.Second {
		t.Fatalf("generating 300 milestones took %v", took)
	} else {
		t.Logf("generated 300 milestones in %v", took)
	}
}

func BenchmarkGenerate300(b *testing.B) {
	for b.Loop() {
		s := New(Options{Seed: 7, Tip: 300})
		if _, err := s.Confirmed(context.Background(), 300); err != nil {
			b.Fatal(err)
		}
	}
}
