package store

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/internal/adaptive"
)

// fakePool is a WritePool whose groups run f instead of writing: no database.
func fakePool(lim *adaptive.Limiter, f func(context.Context, []Write) error) *WritePool {
	return &WritePool{lim: lim, run: f}
}

// singles are n writes of one group each, TS numbering them.
func singles(n int) []Write {
	ws := make([]Write, n)
	for i := range ws {
		ws[i].TS = int64(i)
	}
	return ws
}

// peak counts groups running at once.
type peak struct{ now, max atomic.Int32 }

func (p *peak) enter() {
	cur := p.now.Add(1)
	for m := p.max.Load(); cur > m && !p.max.CompareAndSwap(m, cur); m = p.max.Load() {
	}
}

func (p *peak) leave() { p.now.Add(-1) }

func TestWritePoolBoundsCallsSharingIt(t *testing.T) {
	var pk peak
	var ran atomic.Int32
	pool := fakePool(adaptive.Fixed(3), func(context.Context, []Write) error {
		pk.enter()
		defer pk.leave()
		ran.Add(1)
		time.Sleep(time.Millisecond)
		return nil
	})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if err := pool.Apply(context.Background(), singles(10)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if ran.Load() != 40 || pk.max.Load() != 3 || pool.InFlight() != 0 {
		t.Fatalf("ran %d groups (want 40), at most %d at once (want 3), %d groups still in flight (want 0)",
			ran.Load(), pk.max.Load(), pool.InFlight())
	}
}

func TestWritePoolServesTheOldestCallFirst(t *testing.T) {
	var mu sync.Mutex
	var order []string
	firstStarted, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	// One goroutine: groups run in the order they are taken. With two, a goroutine that
	// took the old call's last group could record it after the other recorded the new
	// call's first (a flake seen in a clean-clone run), though the pool took them in order.
	pool := fakePool(adaptive.Fixed(1), func(ctx context.Context, g []Write) error {
		mu.Lock()
		order = append(order, ctx.Value(callName{}).(string)) // in the order they were taken
		mu.Unlock()
		once.Do(func() { close(firstStarted) })
		<-release
		return nil
	})
	var wg sync.WaitGroup
	apply := func(name string) {
		wg.Go(func() {
			if err := pool.Apply(context.WithValue(context.Background(), callName{}, name), singles(6)); err != nil {
				t.Error(err)
			}
		})
	}
	apply("old")
	<-firstStarted
	apply("new")
	time.Sleep(20 * time.Millisecond) // the new call is queued behind the old one
	close(release)
	wg.Wait()
	for i, name := range order[:6] {
		if name != "old" {
			t.Fatalf("group %d of the run order came from the %s call: %v", i, name, order)
		}
	}
}

type callName struct{}

func TestWritePoolStopsAtTheFirstError(t *testing.T) {
	boom := errors.New("boom")
	var ran atomic.Int32
	pool := fakePool(adaptive.Fixed(2), func(ctx context.Context, g []Write) error {
		if ran.Add(1) == 2 {
			return boom
		}
		select { // the other running group waits until the failure cancels it
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
			return nil
		}
	})
	start := time.Now()
	err := pool.Apply(context.Background(), singles(100))
	if !errors.Is(err, boom) || ran.Load() > 3 || time.Since(start) > 900*time.Millisecond {
		t.Fatalf("Apply returned %v after %d groups in %s; want boom after at most 3, without waiting for the others",
			err, ran.Load(), time.Since(start))
	}
	if err := pool.Apply(context.Background(), singles(0)); err != nil { // the pool still works
		t.Fatal(err)
	}
}

func TestWritePoolReturnsOnlyWhenItsGroupsEnded(t *testing.T) {
	var running atomic.Int32
	pool := fakePool(adaptive.Fixed(4), func(ctx context.Context, g []Write) error {
		running.Add(1)
		defer running.Add(-1)
		<-ctx.Done()
		time.Sleep(10 * time.Millisecond) // a write finishing after its cancel
		return ctx.Err()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	err := pool.Apply(ctx, singles(10))
	if !errors.Is(err, context.DeadlineExceeded) || running.Load() != 0 {
		t.Fatalf("Apply returned %v with %d groups still running; want the deadline, none running", err, running.Load())
	}
}
