// Package hints is the partition-hint policy of ingest: which hint rows a write set
// still needs (a popular address's hint in a partition is written once, not every
// milestone) and when to forget what was written. The rows themselves are the store's
// (store.HintSet, store/hints.go).
package hints

import (
	"sync"

	"github.com/stardust-indexer/stardust-indexer/internal/generations"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Writer turns hint sets into writes, skipping hints it already wrote: within one
// partition range the same popular address would otherwise be rewritten every milestone.
//
// What it knows is kept in two generations of limit hints each (generations.Map): a
// hint found in the old generation moves to the young one, so the hints of busy
// addresses and tags stay known while one-off addresses age out, and memory stays
// bounded (at most 2 x limit hints) however long the indexer runs.
type Writer struct {
	mu    sync.Mutex
	known *generations.Map[any, struct{}]
}

// NewWriter keeps up to 2 x limit written hints.
func NewWriter(limit int) *Writer {
	return &Writer{known: generations.New[any, struct{}](limit)}
}

// Writes returns the writes for the hints of s not known to be written yet.
func (w *Writer) Writes(s *store.HintSet, ts int64) []store.Write {
	w.mu.Lock()
	defer w.mu.Unlock()
	fresh := store.NewHintSet()
	for h := range s.Tags {
		if !w.knows(h) {
			fresh.Tags[h] = struct{}{}
		}
	}
	for h := range s.Addresses {
		if !w.knows(h) {
			fresh.Addresses[h] = struct{}{}
		}
	}
	return fresh.Writes(ts)
}

// knows reports whether h was written, keeping it young if so.
func (w *Writer) knows(h any) bool {
	if _, ok := w.known.Get(h); ok {
		w.known.Put(h, struct{}{})
		return true
	}
	return false
}

// Remember marks the hints of s as written; call it only after their writes succeeded.
func (w *Writer) Remember(s *store.HintSet) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for h := range s.Tags {
		w.known.Put(h, struct{}{})
	}
	for h := range s.Addresses {
		w.known.Put(h, struct{}{})
	}
}

// Known is the number of hints the writer knows (both generations).
func (w *Writer) Known() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.known.Len()
}

// Forget drops what the writer knows. A database that went away may have lost writes it
// had acknowledged (a crashed node's unsynced commit log): the milestones without sync
// rows are written again, and their hints must be too.
func (w *Writer) Forget() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.known.Clear()
}
