package adaptive

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestLimiterBoundsInFlight(t *testing.T) {
	l := Fixed(3)
	var now, peak atomic.Int32
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			n, err := l.Acquire(context.Background())
			if err != nil {
				t.Error(err)
				return
			}
			cur := now.Add(1)
			for p := peak.Load(); cur > p && !peak.CompareAndSwap(p, cur); p = peak.Load() {
			}
			time.Sleep(2 * time.Millisecond)
			now.Add(-1)
			l.Release(n, time.Millisecond, 1, Done)
		})
	}
	wg.Wait()
	if peak.Load() != 3 {
		t.Fatalf("peak in flight %d, want 3", peak.Load())
	}
}

func TestLimiterAcquireCanceled(t *testing.T) {
	l := Fixed(1)
	n, _ := l.Acquire(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := l.Acquire(ctx); err == nil {
		t.Fatal("acquire on a full limiter returned before its context ended")
	}
	l.Release(n, time.Millisecond, 1, Done)
	if _, err := l.Acquire(context.Background()); err != nil { // the canceled waiter holds nothing
		t.Fatal(err)
	}
}

func TestLimiterReportsChanges(t *testing.T) {
	var limits []int
	l := NewLimiter(16, 4, 64, func(limit int, _ time.Duration) { limits = append(limits, limit) })
	n, _ := l.Acquire(context.Background())
	l.Release(n, time.Second, 1, Overloaded)
	if want := []int{16, 11}; !slices.Equal(limits, want) || l.Limit() != 11 {
		t.Fatalf("limits reported %v (now %d), want %v", limits, l.Limit(), want)
	}
}
