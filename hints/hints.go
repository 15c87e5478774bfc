// Package hints is the partition-hint policy of ingest: which hint rows a write set
// still needs (a popular address's hint in a partition is written once, not every
// milestone) and when to forget what was written. The rows themselves are the store's
// (store.HintSet, store/hints.go).
package hints

import (
	"sync"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// Writer turns hint sets into writes, skipping hints it already wrote: within one
// partition range the same popular address would otherwise be rewritten every milestone.
//
// What it knows is kept in two generations of at most limit hints each: when the young
// one is full it becomes the old one and the oldest is dropped. A hint found in the old
// generation moves to the young one, so the hints of busy addresses and tags stay known
// while one-off addresses age out: memory stays bounded (about 2 x limit hints) however
// long the indexer runs, where one map cleared when full would grow to its limit first.
type Writer struct {
	mu         sync.Mutex
	young, old map[any]struct{}
	limit      int
}

// NewWriter keeps up to about 2 x limit written hints.
func NewWriter(limit int) *Writer {
	return &Writer{young: map[any]struct{}{}, old: map[any]struct{}{}, limit: max(limit, 1)}
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

// knows reports whether h was written, promoting it to the young generation if found in
// the old one.
func (w *Writer) knows(h any) bool {
	if _, ok := w.young[h]; ok {
		return true
	}
	if _, ok := w.old[h]; ok {
		w.add(h)
		return true
	}
	return false
}

func (w *Writer) add(h any) {
	if len(w.young) >= w.limit {
		w.old, w.young = w.young, make(map[any]struct{}, w.limit)
	}
	w.young[h] = struct{}{}
}

// Remember marks the hints of s as written; call it only after their writes succeeded.
func (w *Writer) Remember(s *store.HintSet) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for h := range s.Tags {
		w.add(h)
	}
	for h := range s.Addresses {
		w.add(h)
	}
}

// Known is the number of hints the writer knows (both generations).
func (w *Writer) Known() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.young) + len(w.old)
}

// Forget drops what the writer knows. A database that went away may have lost writes it
// had acknowledged (a crashed node's unsynced commit log): the milestones without sync
// rows are written again, and their hints must be too.
func (w *Writer) Forget() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.young, w.old = map[any]struct{}{}, map[any]struct{}{}
}
