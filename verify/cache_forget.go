package verify

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// forgetEvery is how often at most a repairing run raises the store's cache generation
// while it goes on: the API processes forget their remembered tags (answers they serve
// as immutable) when it changes, and a repaired row may change such an answer.
const forgetEvery = 5 * time.Second

// tagForgetter raises the cache generation after repairs: at most every forgetEvery
// during a run, and once more at its end when anything was repaired since.
type tagForgetter struct {
	st      *store.Store
	now     func() time.Time
	pending store.CacheChange // what was repaired since the last raise
	dirty   bool
	last    time.Time
}

// repaired notes that rows of milestone index may have been rewritten or its sync row
// deleted (by a repair that failed part-way too), and raises the generation when one is
// due; a failure to raise it joins *err.
func (f *tagForgetter) repaired(ctx context.Context, index uint32, err *error) {
	if !f.dirty {
		f.pending = store.CacheChange{Reason: "verify repair", From: index}
		f.dirty = true
	}
	f.pending.To = index
	if f.now().Sub(f.last) < forgetEvery {
		return
	}
	if ferr := f.flush(ctx); ferr != nil {
		*err = errors.Join(*err, ferr)
	}
}

// flush raises the generation if anything was repaired since the last raise.
func (f *tagForgetter) flush(ctx context.Context) error {
	if !f.dirty {
		return nil
	}
	f.pending.At = f.now().UTC()
	if _, err := f.st.RaiseCacheGeneration(ctx, verifierName, f.pending); err != nil {
		return fmt.Errorf("repaired milestones %d-%d; the API processes were not told to forget their remembered "+
			"tags (they keep answering 304 to tags of answers the repair may have changed): %w",
			f.pending.From, f.pending.To, err)
	}
	f.dirty, f.last = false, f.now()
	return nil
}

// verifierName names this process in the rows it writes.
var verifierName = func() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		h = "unknown-host"
	}
	return fmt.Sprintf("verify/%s/%d", h, os.Getpid())
}()
