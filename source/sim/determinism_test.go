package sim

import (
	"bytes"
	"context"
	"math/rand"
	"sync"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

func TestSameSeedSameBytes(t *testing.T) {
	opts := Options{Seed: 42, Tip: 200}
	a, b := milestones(t, New(opts), 200), milestones(t, New(opts), 200)
	for i := range a {
		if !bytes.Equal(fingerprint(a[i]), fingerprint(b[i])) {
			t.Fatalf("milestone %d differs between two sims with the same seed", a[i].Index)
		}
	}
	other := milestones(t, New(Options{Seed: 43, Tip: 200}), 200)
	if bytes.Equal(fingerprint(a[199]), fingerprint(other[199])) {
		t.Fatal("different seeds gave the same chain")
	}
}

// Requests from many goroutines in shuffled order must see exactly what a
// sequential reader sees.
func TestConcurrentRequestsMatchSequential(t *testing.T) {
	opts := Options{Seed: 9, Tip: 120}
	want := milestones(t, New(opts), 120)
	s := New(opts)
	order := rand.New(rand.NewSource(1)).Perm(120)
	got := make([]*chain.ConfirmedMilestone, 120)
	errs := make([]error, 120)
	var wg sync.WaitGroup
	for _, i := range order {
		wg.Go(func() {
			got[i], errs[i] = s.Confirmed(context.Background(), uint32(i+1))
		})
	}
	wg.Wait()
	for i := range want {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if !bytes.Equal(fingerprint(got[i]), fingerprint(want[i])) {
			t.Fatalf("milestone %d differs under concurrent, out-of-order requests", i+1)
		}
	}
}

// Truth and Unreferenced calls interleaved with Milestone must not change
// what gets generated.
func TestInterleavedCallsDoNotPerturb(t *testing.T) {
	opts := Options{Seed: 5, Tip: 50}
	want := milestones(t, New(opts), 50)
	s := New(opts)
	if _, err := s.Unreferenced(context.Background(), 30); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Truth(10); err != nil {
		t.Fatal(err)
	}
	got := milestones(t, s, 50)
	for i := range want {
		if !bytes.Equal(fingerprint(got[i]), fingerprint(want[i])) {
			t.Fatalf("milestone %d changed by earlier calls", i+1)
		}
	}
}
