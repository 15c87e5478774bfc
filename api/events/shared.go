package events

import (
	"context"
	"strconv"
	"time"

	"golang.org/x/sync/singleflight"
)

// sharedReads make the streams that ask for the same window at once share one read of
// it: the streams a new milestone wakes ask for the same windows together. A synced
// milestone's rows never change, so a read that began before a stream asked gives it the
// same rows its own read would. Nothing is kept once a read ends, so the sharing holds no
// memory between milestones.
type sharedReads struct {
	flight   singleflight.Group
	unshared bool // each stream reads for itself (the benchmark's comparison)
}

func newSharedReads(unshared bool) *sharedReads { return &sharedReads{unshared: unshared} }

// windowKey names a read of [lo, hi]: what is read (its kind and key) and the window.
func windowKey(what string, lo, hi uint32) string {
	return what + "\x00" + strconv.FormatUint(uint64(lo), 10) + "\x00" + strconv.FormatUint(uint64(hi), 10)
}

// sharedReadWindow bounds a shared read, which no stream's cancellation ends.
const sharedReadWindow = time.Minute

// share answers the read named key once for every stream asking for it while it runs.
// The read runs apart from the asking stream's cancellation, since other streams wait
// on it, bounded by sharedReadWindow; a stream that goes away stops waiting. The answer
// is shared: callers read it and never change it.
func share[T any](ctx context.Context, r *sharedReads, key string, read func(context.Context) (T, error)) (T, error) {
	if r.unshared {
		return read(ctx)
	}
	ch := r.flight.DoChan(key, func() (any, error) {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sharedReadWindow)
		defer cancel()
		return read(ctx)
	})
	select {
	case res := <-ch:
		if res.Err != nil {
			var zero T
			return zero, res.Err
		}
		return res.Val.(T), nil
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}
