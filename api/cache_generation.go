package api

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// The store's cache generation (store.CacheGenerationConcern) is how other processes (a
// verify repair in the indexer, a resync sent to another API process) tell this one to
// forget its remembered tags: requests have it read at most every generationEvery, in
// the background, and a generation other than the one last read forgets every tag.

// generationEvery is how often at most the cache generation is read: one small read per
// interval, whatever the traffic; a tag a repair made stale is answered at most about
// this long after the repair.
const generationEvery = 5 * time.Second

// generationReadTimeout bounds one read of the generation (tried once).
const generationReadTimeout = 2 * time.Second

// storeGeneration is the store's cache generation as this process last read it.
type storeGeneration struct {
	every   atomic.Int64 // nanoseconds; 0: generationEvery (tests set less)
	due     atomic.Int64 // unix nanoseconds from which the next read may start
	reading atomic.Bool
	mu      sync.Mutex
	seen    int64
	read    bool // seen was read once
}

func (g *storeGeneration) interval() time.Duration {
	if every := g.every.Load(); every > 0 {
		return time.Duration(every)
	}
	return generationEvery
}

// check starts a read of the generation when one is due and none is running; the
// request never waits for it. A server without a store (route wiring tests) has none.
func (g *storeGeneration) check(s *Server) {
	now := time.Now().UnixNano()
	if s.st == nil || now < g.due.Load() || !g.reading.CompareAndSwap(false, true) {
		return
	}
	g.due.Store(now + int64(g.interval()))
	go func() {
		defer g.reading.Store(false)
		ctx, cancel := context.WithTimeout(context.Background(), generationReadTimeout)
		defer cancel()
		gen, err := s.st.CacheGeneration(store.NoRetries(ctx))
		if err != nil {
			slog.Warn("reading the cache generation (tried again next interval)", "error", err)
			return
		}
		g.observe(gen, &s.known)
	}()
}

// observe forgets every remembered tag when gen is not the generation last read (or
// none was read yet: tags may have been remembered before a raise this process missed).
func (g *storeGeneration) observe(gen int64, k *knownTags) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.read && gen == g.seen {
		return
	}
	g.seen, g.read = gen, true
	k.forgetAll()
}

// raised notes a raise to gen made by this process, which forgot what the raise was for
// itself: when the generation last read is the one before, nobody else raised it in
// between (each raise adds one, by compare-and-set), so nothing else needs forgetting.
func (g *storeGeneration) raised(gen int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.read && g.seen == gen-1 {
		g.seen = gen
	}
}

// forgetResynced forgets the tags a resync of [from, to] may make stale: the lists of
// those milestones (immutable because their sync rows existed; the indexer writes them
// again), in this process at once, and every tag in the other API processes, through the
// store's cache generation.
func (s *Server) forgetResynced(ctx context.Context, from, to uint32) error {
	s.known.forgetMilestones(from, to)
	gen, err := s.st.RaiseCacheGeneration(ctx, processName,
		store.CacheChange{Reason: "resync", From: from, To: to, At: time.Now().UTC()})
	if err != nil {
		return fmt.Errorf("resync done; the other API processes were not told to forget their remembered tags: %w", err)
	}
	s.known.store.raised(gen)
	return nil
}

// processName names this process in the rows it writes.
var processName = fmt.Sprintf("api/%s/%d", hostname, os.Getpid())
