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
type Writer struct {
	mu    sync.Mutex
	known map[any]struct{}
	limit int
}

// NewWriter remembers up to limit written hints (then forgets them all and starts over).
func NewWriter(limit int) *Writer { return &Writer{known: map[any]struct{}{}, limit: limit} }

// Writes returns the writes for the hints of s not known to be written yet.
func (w *Writer) Writes(s *store.HintSet, ts int64) []store.Write {
	w.mu.Lock()
	defer w.mu.Unlock()
	fresh := store.NewHintSet()
	for h := range s.Tags {
		if _, ok := w.known[h]; !ok {
			fresh.Tags[h] = struct{}{}
		}
	}
	for h := range s.Addresses {
		if _, ok := w.known[h]; !ok {
			fresh.Addresses[h] = struct{}{}
		}
	}
	return fresh.Writes(ts)
}

// Remember marks the hints of s as written; call it only after their writes succeeded.
func (w *Writer) Remember(s *store.HintSet) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.known)+len(s.Tags)+len(s.Addresses) > w.limit {
		w.known = map[any]struct{}{}
	}
	for h := range s.Tags {
		w.known[h] = struct{}{}
	}
	for h := range s.Addresses {
		w.known[h] = struct{}{}
	}
}

// Forget drops what the writer knows. A database that went away may have lost writes it
// had acknowledged (a crashed node's unsynced commit log): the milestones without sync
// rows are written again, and their hints must be too.
func (w *Writer) Forget() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.known = map[any]struct{}{}
}
