package node

import (
	"context"
	"testing"
	"time"
)

// A walk starts from bytes only with a walk (ended, running or reserved) among the
// warmWalks milestones below it; the first milestones have none.
func TestWalkBookWarm(t *testing.T) {
	b := newWalkBook()
	if warm, end := b.start(1); warm {
		t.Fatal("milestone 1 is warm in an empty book")
	} else {
		end(40)
	}
	if warm, _ := b.start(1 + warmWalks); !warm {
		t.Fatalf("milestone %d is cold with milestone 1 walked", 1+warmWalks)
	}
	if warm, _ := b.start(2 + warmWalks); !warm {
		t.Fatalf("milestone %d is cold with milestone %d running", 2+warmWalks, 1+warmWalks)
	}
	if warm, _ := b.start(100); warm {
		t.Fatal("milestone 100 is warm with no walk below it in reach")
	}
	b.reserve(200)
	if warm, _ := b.start(201); !warm {
		t.Fatal("milestone 201 is cold with milestone 200 reserved")
	}
}

// settle waits for the walks and reservations below (not above, not far below), and a
// reservation is taken over by its walk's start or ended by its release.
func TestWalkBookSettle(t *testing.T) {
	b := newWalkBook()
	_, endFar := b.start(10)
	defer endFar(0)
	release := b.reserve(300)
	_, endAbove := b.start(302)
	defer endAbove(0)
	settled := make(chan error, 1)
	go func() { settled <- b.settle(context.Background(), 301) }()
	select {
	case err := <-settled:
		t.Fatalf("settled (%v) while milestone 300 was reserved", err)
	case <-time.After(50 * time.Millisecond):
	}
	_, end := b.start(300) // takes the reservation over
	release()              // a no-op: the walk holds the place
	select {
	case err := <-settled:
		t.Fatalf("settled (%v) while milestone 300 was walked", err)
	case <-time.After(50 * time.Millisecond):
	}
	end(40)
	select {
	case err := <-settled:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("not settled once milestone 300's walk ended (milestone 10 is far below, 302 above)")
	}
	if got := b.budget(); got != 256 {
		t.Fatalf("budget %d after cones of 40 blocks, want the floor 256", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer b.reserve(303)()
	cancel()
	if err := b.settle(ctx, 304); err == nil {
		t.Fatal("a cancelled settle returned no error")
	}
}

// The book remembers the latest bookSpan walks, whatever their indexes (a backfill far
// below a walk at the tip keeps its own), and sizes the budget on the latest cones.
func TestWalkBookBounds(t *testing.T) {
	b := newWalkBook()
	_, end := b.start(5_000_000) // the tip, verified
	end(40)
	for i := uint32(1); i <= 2*bookSpan; i++ {
		_, end := b.start(i)
		end(100)
	}
	if len(b.walked) != bookSpan || len(b.order) != bookSpan || !b.walked[2*bookSpan] || b.walked[bookSpan] {
		t.Fatalf("%d walks remembered (%d in order), want the latest %d", len(b.walked), len(b.order), bookSpan)
	}
	if warm, _ := b.start(2*bookSpan + 1); !warm {
		t.Fatal("a walk right above the latest walks is cold")
	}
	if got := b.budget(); got != 400 {
		t.Fatalf("budget %d after cones of 100 blocks, want 400", got)
	}
}
