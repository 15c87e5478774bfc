package archive_test

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/archive"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/testsupport/archivetest"
)

// The large archive of TestTwoFarGapsFlatMemory: 4000 sim milestones (about 50 KB each
// once decoded), of which two gaps of 100 at either end are asked for.
const (
	largeFrom, largeTo = 2, 4001
	gapLen             = 100
	fetchAhead         = 8 // the pipeline's default FetchAhead
	// heapBound is the growth of the heap in use allowed while importing the two gaps:
	// a few decoded milestones, the reader's buffers and the garbage between
	// collections. Holding the skipped milestones takes some 200 MB.
	heapBound = 16 << 20
)

// TestTwoFarGapsFlatMemory: importing two gaps at either end of a large archive, the
// source asked as the pipeline asks (FetchAhead at once, in order), holds only the
// milestones of its fetch-ahead window: the heap in use stays flat while it reads past
// the thousands of milestones between the gaps.
func TestTwoFarGapsFlatMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an archive of 4000 sim milestones (-short)")
	}
	path, ids := largeArchive(t)
	src, err := archive.Open([]string{path}, simKeys())
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	stop := sampleHeap()
	for _, gap := range []store.Range{{From: largeFrom, To: largeFrom + gapLen - 1},
		{From: largeTo - gapLen + 1, To: largeTo}} {
		start := time.Now()
		fetchLikePipeline(t, src, gap, ids)
		t.Logf("milestones %d..%d read in %v", gap.From, gap.To, time.Since(start).Round(time.Millisecond))
	}
	grown := stop()
	t.Logf("two gaps of %d milestones %d apart: the heap in use grew by at most %.1f MiB",
		gapLen, largeTo-largeFrom-2*gapLen+1, float64(grown)/(1<<20))
	if grown > heapBound {
		t.Fatalf("the heap in use grew by %d MiB, more than %d MiB: skipped milestones are held",
			grown>>20, heapBound>>20)
	}
}

// largeArchive writes the sim's milestones largeFrom..largeTo into a file; ids are the
// milestone IDs of the gaps' milestones.
func largeArchive(t *testing.T) (string, map[uint32]chain.MilestoneID) {
	t.Helper()
	path, f := archivetest.Create(t, "large.sdxa.gz")
	defer f.Close()
	src := sim.New(sim.Options{Seed: 42, Tip: largeTo, MessagesPerMilestone: 12,
		MilestoneInterval: 20 * time.Minute, Retain: 64})
	w, err := archive.NewWriter(f, archive.Header{Network: store.RecordOf(sim.Network()), From: largeFrom, To: largeTo})
	if err != nil {
		t.Fatal(err)
	}
	ids := map[uint32]chain.MilestoneID{}
	for i := uint32(largeFrom); i <= largeTo; i++ {
		cm, err := src.Confirmed(context.Background(), i)
		if err == nil {
			err = w.Write(cm)
		}
		if err != nil {
			t.Fatal(err)
		}
		if i < largeFrom+gapLen || i > largeTo-gapLen {
			ids[i] = cm.MilestoneID
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path, ids
}

// fetchLikePipeline asks src for the milestones of r as the pipeline does: up to
// fetchAhead requests at once, each in its own goroutine, taken in order.
func fetchLikePipeline(t *testing.T, src *archive.Source, r store.Range, ids map[uint32]chain.MilestoneID) {
	t.Helper()
	type answer struct {
		vm  *chain.VerifiedMilestone
		err error
	}
	slots := make(chan chan answer, fetchAhead)
	go func() {
		defer close(slots)
		for i := r.From; i <= r.To; i++ {
			ch := make(chan answer, 1)
			slots <- ch
			go func(index uint32) {
				vm, err := src.Milestone(context.Background(), index)
				ch <- answer{vm, err}
			}(i)
		}
	}()
	want := r.From
	for ch := range slots {
		a := <-ch
		if a.err != nil {
			t.Fatalf("milestone %d: %v", want, a.err)
		}
		if cm := a.vm.Confirmed(); cm.Index != want || cm.MilestoneID != ids[want] {
			t.Fatalf("asked for milestone %d, got %d (%s)", want, cm.Index, cm.MilestoneID)
		}
		want++
	}
}

// sampleHeap samples the heap in use every millisecond, after a collection that sets the
// baseline; stop ends the sampling and returns the largest growth seen.
func sampleHeap() (stop func() int64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := int64(ms.HeapInuse)
	peak := new(atomic.Int64)
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if grown := int64(ms.HeapInuse) - base; grown > peak.Load() {
				peak.Store(grown)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() int64 {
		close(done)
		<-finished
		return peak.Load()
	}
}
