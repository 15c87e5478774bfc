package node

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// coneBlock is a block of the cone: the node's bytes, their decoding and its metadata.
type coneBlock struct {
	id   chain.MessageID
	raw  []byte
	msg  *chain.Message
	meta tip25.BlockMetadataJSON
}

// Default caps of a cone before it is verified. A Stardust block holds at most 32 KiB
// (TIP-24) and real milestones reference hundreds of blocks at most; the caps are far
// above that and still keep a lying node from growing the source's memory unbounded.
const (
	DefaultMaxConeBlocks = 100_000
	DefaultMaxConeBytes  = 512 << 20
)

// ErrConeTooLarge refuses a milestone whose cone passes MaxConeBlocks or MaxConeBytes.
var ErrConeTooLarge = errors.New("milestone cone too large")

// walkCone finds milestone index's cone: from the milestone's parents, breadth first,
// every block whose metadata says index referenced it, down to blocks an earlier
// milestone referenced: those the node says so of, and those the walk of an earlier
// milestone reached (reachedCache), which need no request. The parents must be those of
// a milestone whose signatures passed, as the blocks reached are remembered for the
// walks of later milestones. A block's parents are asked for as soon as its answer
// arrives, not when its whole level has: a walk costs the round trips of its longest
// path, and the slowest answer of a level holds up nothing but its own parents. Up to
// Concurrency requests of the walk are in flight (the client bounds them further). It
// stops once the cone passes the caps, before holding more.
func (s *member) walkCone(ctx context.Context, index uint32, parents []chain.MessageID) (map[chain.MessageID]*coneBlock, error) {
	w, err := s.walk(ctx, index, parents, 0)
	s.blocks.drop(w.asked)
	if err != nil {
		return nil, err
	}
	return w.cone, nil
}

// walk runs a cone walk: with the metadata when budget is 0, else from bytes alone,
// fetching at most budget blocks (see fromBytes). The blocks it asked for (w.asked,
// also when it fails) are the caller's to drop from the block cache.
func (s *member) walk(ctx context.Context, index uint32, parents []chain.MessageID, budget int) (*coneWalk, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := &coneWalk{s: s, ctx: ctx, index: index, cancel: cancel, budget: budget, cone: make(map[chain.MessageID]*coneBlock),
		seen: make(map[chain.MessageID]bool), missing: make(map[chain.MessageID]bool)}
	w.more = sync.NewCond(&w.mu)
	w.mu.Lock()
	w.enqueueLocked(parents)
	w.mu.Unlock()
	w.workers.Wait()
	return w, w.err
}

// coneWalk is one walk's state, shared by its workers under mu.
type coneWalk struct {
	s      *member
	index  uint32
	cancel context.CancelFunc
	budget int // from bytes alone: the blocks it may fetch; 0 with the metadata

	truncated bool                     // the budget stopped the walk
	missing   map[chain.MessageID]bool // blocks the node does not hold (404), from bytes alone
	asked     []chain.MessageID        // every block taken from the queue

	ctx     context.Context
	workers sync.WaitGroup

	mu      sync.Mutex
	more    *sync.Cond // the queue grew, a worker finished, or the walk failed
	queue   []chain.MessageID
	busy    int // blocks being fetched
	started int // workers started
	idle    int // workers waiting in take
	err     error
	cone    map[chain.MessageID]*coneBlock
	seen    map[chain.MessageID]bool
	size    int64
}

// work fetches queued blocks until the walk is done (nothing queued nor being fetched)
// or failed.
func (w *coneWalk) work(ctx context.Context) {
	for {
		id, ok := w.take()
		if !ok {
			return
		}
		if w.budget > 0 {
			b, err := w.s.blockFromBytes(ctx, id)
			w.done(id, b, err, b == nil && err == nil)
			continue
		}
		b, err := w.s.coneBlock(ctx, w.index, id)
		w.done(id, b, err, false)
	}
}

// take waits for a block to fetch; false when the walk is over.
func (w *coneWalk) take() (chain.MessageID, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for len(w.queue) == 0 && w.busy > 0 && w.err == nil {
		w.idle++ // enqueueLocked and done take it back when they wake this worker
		w.more.Wait()
	}
	if w.err != nil || len(w.queue) == 0 {
		return chain.MessageID{}, false
	}
	id := w.queue[0]
	w.queue = w.queue[1:]
	w.busy++
	w.asked = append(w.asked, id)
	return id, true
}

// done records a fetched block (nil: outside the cone, or not held by the node when
// missing) and queues its parents, or the walk's first error. A walk from bytes alone
// that reached its budget records no more blocks.
// Only as many workers are woken as blocks were queued, and all of them once the walk
// is over: a walk has up to Concurrency workers, and waking them all for every answer
// costs more CPU than the answers.
func (w *coneWalk) done(id chain.MessageID, b *coneBlock, err error, missing bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.busy--
	switch {
	case w.err != nil:
	case err != nil:
		w.fail(err)
	case b == nil:
		if missing {
			w.missing[id] = true
		}
	case len(w.cone) >= w.s.cfg.MaxConeBlocks || w.size+int64(len(b.raw)) > w.s.cfg.MaxConeBytes:
		w.fail(source.Refuse(fmt.Errorf("%w: milestone %d references more than %d blocks or %d bytes "+
			"(raise the cap if a real milestone does)", ErrConeTooLarge, w.index, w.s.cfg.MaxConeBlocks, w.s.cfg.MaxConeBytes)))
	case w.budget > 0 && len(w.cone) >= w.budget:
		w.truncated = true
	default:
		w.size += int64(len(b.raw))
		w.cone[b.id] = b
		w.enqueueLocked(b.msg.Parents)
	}
	if w.err != nil || (w.busy == 0 && len(w.queue) == 0) {
		w.idle = 0
		w.more.Broadcast()
	}
}

func (w *coneWalk) fail(err error) {
	w.err = err
	w.cancel()
}

// enqueueLocked queues the blocks not seen yet that no earlier walk reached, under mu,
// and hands them to workers: it wakes waiting ones, and starts new ones for the rest up
// to Concurrency. A walk has as many workers as its widest level needs, not
// Concurrency each: many walks at once (a catch-up reads ahead) would otherwise park
// thousands of goroutines.
func (w *coneWalk) enqueueLocked(ids []chain.MessageID) {
	queued := 0
	for _, id := range ids {
		if w.seen[id] || id == (chain.MessageID{}) {
			continue
		}
		w.seen[id] = true
		if !w.s.reached.reach(id, w.index) {
			w.queue = append(w.queue, id)
			queued++
		}
	}
	wake := min(queued, w.idle)
	w.idle -= wake
	for range wake {
		w.more.Signal()
	}
	for unserved := queued - wake; unserved > 0 && w.started < w.s.cfg.Concurrency; unserved-- {
		w.started++
		w.workers.Add(1)
		go func() {
			defer w.workers.Done()
			w.work(w.ctx)
		}()
	}
}

// coneBlock reads a block's metadata and its bytes; nil for a block outside the cone:
// one an earlier milestone referenced, or one the node does not hold (404: a pruned node
// holds no block below its pruning index, nor the past of its solid entry points). While
// the node's requests are below their limit, both are asked at once, so that a level of
// the walk costs one round trip, and the bytes of a block outside the cone are read and
// dropped. While requests queue for the limit, round trips are cheap next to requests:
// the bytes are asked only once the metadata puts the block in the cone. Ending the walk
// at a 404 is safe: the milestone's signed inclusion Merkle root covers every block of
// its cone in white-flag order, so chain.Verify, which runs before anything is written,
// refuses the milestone if the node left out a block of the cone.
func (s *member) coneBlock(ctx context.Context, index uint32, id chain.MessageID) (*coneBlock, error) {
	route := "/blocks/" + id.String()
	var raw func() ([]byte, error)
	if !s.c.gate.queued() {
		raw = s.blockBytes(ctx, id)
	}
	var meta tip25.BlockMetadataJSON
	err := s.c.getJSON(ctx, route+"/metadata", &meta)
	if errors.Is(err, errNotFound) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	switch ref := meta.ReferencedByMilestoneIndex; {
	case ref != 0 && ref < index:
		return nil, nil
	case ref != index:
		// A block below milestone index's parents is referenced by index or earlier; a node
		// that says otherwise is still updating (or inconsistent): try again later.
		return nil, fmt.Errorf("%w: block %s below milestone %d says it is referenced by milestone %d",
			errUnavailable, id, index, ref)
	}
	if raw == nil {
		raw = s.blockBytes(ctx, id)
	}
	bytes, err := raw()
	if err != nil {
		return nil, err
	}
	return checkBlock(id, bytes, meta)
}

// blockBytes asks for a block's bytes and returns a function that waits for them.
func (s *member) blockBytes(ctx context.Context, id chain.MessageID) func() ([]byte, error) {
	type answer struct {
		raw []byte
		err error
	}
	got := make(chan answer, 1)
	go func() {
		raw, err := s.block(ctx, id)
		got <- answer{raw, err}
	}()
	return func() ([]byte, error) {
		a := <-got
		return a.raw, a.err
	}
}

// block is a block's bytes, through the block cache: every walk reads bytes here.
func (s *member) block(ctx context.Context, id chain.MessageID) ([]byte, error) {
	return s.blocks.get(ctx, id, func() ([]byte, error) { return s.fetchBlock(ctx, id) })
}

// fetchBlock reads a block's bytes from the node and refuses bytes that do not hash to
// its ID: the block cache holds only the blocks asked for.
func (s *member) fetchBlock(ctx context.Context, id chain.MessageID) ([]byte, error) {
	raw, err := s.c.get(ctx, "/blocks/"+id.String(), mimeBinary)
	if err != nil {
		return nil, err
	}
	if got := chain.MessageIDOf(raw); got != id {
		return nil, source.Refuse(fmt.Errorf("GET %s/blocks/%s: the bytes hash to %s", apiBase, id, got))
	}
	return raw, nil
}

// blockFromBytes reads a block for a walk from bytes alone: its bytes, decoded; nil for
// a block the node does not hold (404), which the walk treats as outside the cone as
// coneBlock does.
func (s *member) blockFromBytes(ctx context.Context, id chain.MessageID) (*coneBlock, error) {
	raw, err := s.block(ctx, id)
	if errors.Is(err, errNotFound) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	return decodeBlock(id, raw)
}

// decodeBlock decodes a block's bytes strictly; bytes that do not decode are refused.
func decodeBlock(id chain.MessageID, raw []byte) (*coneBlock, error) {
	msg, err := chain.DecodeMessage(raw)
	if err != nil {
		return nil, source.Refuse(fmt.Errorf("GET %s/blocks/%s: %w", apiBase, id, err))
	}
	return &coneBlock{id: id, raw: raw, msg: msg}, nil
}

// checkBlock decodes a block's bytes (which hash to its ID: block checked them) and
// refuses a block that does not name the parents its metadata names.
func checkBlock(id chain.MessageID, raw []byte, meta tip25.BlockMetadataJSON) (*coneBlock, error) {
	b, err := decodeBlock(id, raw)
	if err != nil {
		return nil, err
	}
	if parents := idTexts(b.msg.Parents); !slices.Equal(parents, meta.Parents) {
		return nil, source.Refuse(fmt.Errorf("GET %s/blocks/%s: metadata names parents %v, the block %v",
			apiBase, id, meta.Parents, parents))
	}
	b.meta = meta
	return b, nil
}

func idTexts(ids []chain.MessageID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.String()
	}
	return out
}
