package events

import (
	"context"
	"strconv"
	"sync"

	"golang.org/x/sync/singleflight"

	"github.com/stardust-indexer/stardust-indexer/internal/generations"
)

// Reads of a synced milestone's rows give the same rows every time (its rows never
// change once synced), so streams share them: the streams a new milestone wakes ask for
// the same window at once, and one read answers them all (singleflight). The answers of
// live windows (at most keptSpan milestones) are also kept a while, for the streams that
// ask just after the read ended; replays' wider windows are not kept, which bounds the
// memory to keptWindows small answers a generation.
const (
	keptSpan    = 4
	keptWindows = 256
)

// sharedReads are the stream reads in flight and the live windows' answers kept.
type sharedReads struct {
	flight   singleflight.Group
	mu       sync.Mutex
	kept     *generations.Map[string, any]
	unshared bool // each stream reads for itself (the benchmark's comparison)
}

func newSharedReads(unshared bool) *sharedReads {
	return &sharedReads{kept: generations.New[string, any](keptWindows), unshared: unshared}
}

// windowKey names a read of [lo, hi]: what is read (its kind and key) and the window.
func windowKey(what string, lo, hi uint32) string {
	return what + "\x00" + strconv.FormatUint(uint64(lo), 10) + "\x00" + strconv.FormatUint(uint64(hi), 10)
}

// share answers the read named key, of milestones [lo, hi], once for every stream asking
// for it. The read runs apart from the asking stream's cancellation, since other streams
// wait on it (the store's query timeout bounds it); a stream that goes away stops
// waiting. The answer is shared: callers read it and never change it.
func share[T any](ctx context.Context, r *sharedReads, key string, lo, hi uint32, read func(context.Context) (T, error)) (T, error) {
	if r.unshared {
		return read(ctx)
	}
	if v, ok := r.get(key); ok {
		return v.(T), nil
	}
	ch := r.flight.DoChan(key, func() (any, error) {
		v, err := read(context.WithoutCancel(ctx))
		if err == nil && hi-lo < keptSpan {
			r.put(key, v)
		}
		return v, err
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

func (r *sharedReads) get(key string) (any, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.kept.Get(key)
}

func (r *sharedReads) put(key string, v any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.kept.Put(key, v)
}
