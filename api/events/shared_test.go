package events

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Streams asking for the same window at once share one read; a live window's answer is
// kept for those asking after it, a replay's wider one and a failed read are not; a
// stream that goes away stops waiting without failing the others.
func TestSharedReads(t *testing.T) {
	r := newSharedReads(false)
	var reads atomic.Int32
	release := make(chan struct{})
	read := func(context.Context) ([]int, error) { reads.Add(1); <-release; return []int{7}, nil }

	const streams = 50
	var wg sync.WaitGroup
	got := make([][]int, streams)
	for i := range streams {
		wg.Add(1)
		go func() { defer wg.Done(); got[i], _ = share(context.Background(), r, "live", 10, 10, read) }()
	}
	gone, cancel := context.WithCancel(context.Background())
	goneErr := make(chan error)
	go func() { _, err := share(gone, r, "live", 10, 10, read); goneErr <- err }()
	waitFor(t, func() bool { return reads.Load() == 1 })
	cancel()
	if err := <-goneErr; !errors.Is(err, context.Canceled) {
		t.Errorf("a stream gone while waiting: %v, want context.Canceled", err)
	}
	close(release)
	wg.Wait()
	for i, g := range got {
		if len(g) != 1 || g[0] != 7 {
			t.Fatalf("stream %d got %v", i, g)
		}
	}
	if _, _ = share(context.Background(), r, "live", 10, 10, read); reads.Load() != 1 {
		t.Errorf("%d reads for %d streams and one after, want 1 (the answer kept)", reads.Load(), streams)
	}

	_, _ = share(context.Background(), r, "replay", 10, 10+keptSpan, read)
	_, _ = share(context.Background(), r, "replay", 10, 10+keptSpan, read)
	if reads.Load() != 3 {
		t.Errorf("a replay's window read %d times in two asks, want 2 (not kept)", reads.Load()-1)
	}

	failing := func(context.Context) ([]int, error) { reads.Add(1); return nil, errors.New("node down") }
	for range 2 {
		if _, err := share(context.Background(), r, "failing", 1, 1, failing); err == nil {
			t.Fatal("a failed read shared as an answer")
		}
	}
	if reads.Load() != 5 {
		t.Errorf("a failed read was kept: %d reads, want 5", reads.Load())
	}

	unshared := newSharedReads(true)
	for range 2 {
		_, _ = share(context.Background(), unshared, "live", 10, 10, func(context.Context) ([]int, error) { reads.Add(1); return nil, nil })
	}
	if reads.Load() != 7 {
		t.Errorf("unshared: %d reads for two asks, want 2", reads.Load()-5)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for range 1000 {
		if cond() {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("condition never held")
}
