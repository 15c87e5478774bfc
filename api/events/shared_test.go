package events

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Streams asking for the same window while it is read share that one read; a stream
// that goes away stops waiting without failing the others; once the read has ended, the
// next ask reads again (nothing is kept); unshared, every ask reads.
func TestSharedReads(t *testing.T) {
	r := newSharedReads(false)
	var reads atomic.Int32
	release := make(chan struct{})
	read := func(context.Context) ([]int, error) { reads.Add(1); <-release; return []int{7}, nil }

	const streams = 50
	var asked, wg sync.WaitGroup
	got := make([][]int, streams)
	for i := range streams {
		asked.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			asked.Done()
			got[i], _ = share(context.Background(), r, "live", read)
		}()
	}
	gone, cancel := context.WithCancel(context.Background())
	goneErr := make(chan error)
	go func() { _, err := share(gone, r, "live", read); goneErr <- err }()
	asked.Wait()
	waitFor(t, func() bool { return reads.Load() == 1 })
	time.Sleep(20 * time.Millisecond) // the streams reach the read in flight
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
	// One read, but for a stream the scheduler held back until the read had ended.
	before := reads.Load()
	if before >= streams/5 {
		t.Errorf("%d reads for %d streams asking at once, want 1", before, streams)
	}
	if _, _ = share(context.Background(), r, "live", read); reads.Load() != before+1 {
		t.Errorf("an ask after the read ended: %d more reads, want 1 (nothing kept)", reads.Load()-before)
	}

	failing := func(context.Context) ([]int, error) { reads.Add(1); return nil, errors.New("node down") }
	if _, err := share(context.Background(), r, "failing", failing); err == nil {
		t.Fatal("a failed read shared as an answer")
	}

	before = reads.Load()
	unshared := newSharedReads(true)
	for range 2 {
		_, _ = share(context.Background(), unshared, "live", func(context.Context) ([]int, error) { reads.Add(1); return nil, nil })
	}
	if n := reads.Load() - before; n != 2 {
		t.Errorf("unshared: %d reads for two asks, want 2", n)
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
