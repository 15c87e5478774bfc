package node

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"

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

// walkCone finds milestone index's cone: from the milestone's parents, level by level,
// every block whose metadata says index referenced it, down to blocks an earlier
// milestone referenced: those the node says so of, and those the walk of an earlier
// milestone reached (reachedCache), which need no request. The parents must be those of
// a milestone whose signatures passed, as the blocks reached are remembered for the
// walks of later milestones. Each level's requests run in parallel (the client bounds
// them). It stops once the cone passes the caps, before holding more.
func (s *member) walkCone(ctx context.Context, index uint32, parents []chain.MessageID) (map[chain.MessageID]*coneBlock, error) {
	cone := make(map[chain.MessageID]*coneBlock)
	seen := make(map[chain.MessageID]bool)
	var size int64
	frontier := parents
	for len(frontier) > 0 {
		var mu sync.Mutex
		var next []chain.MessageID
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(s.cfg.Concurrency)
		for _, id := range frontier {
			if seen[id] || id == (chain.MessageID{}) {
				continue
			}
			seen[id] = true
			if s.reached.reach(id, index) {
				continue
			}
			g.Go(func() error {
				b, err := s.coneBlock(gctx, index, id)
				if err != nil || b == nil {
					return err
				}
				mu.Lock()
				defer mu.Unlock()
				if size += int64(len(b.raw)); len(cone) >= s.cfg.MaxConeBlocks || size > s.cfg.MaxConeBytes {
					return source.Refuse(fmt.Errorf("%w: milestone %d references more than %d blocks or %d bytes "+
						"(raise the cap if a real milestone does)", ErrConeTooLarge, index, s.cfg.MaxConeBlocks, s.cfg.MaxConeBytes))
				}
				cone[id] = b
				next = append(next, b.msg.Parents...)
				return nil
			})
		}
		if err := g.Wait(); err != nil {
			return nil, err
		}
		frontier = next
	}
	return cone, nil
}

// coneBlock reads a block's metadata and its bytes, both at once so that a level of the
// walk costs one round trip; nil for a block outside the cone: one an earlier milestone
// referenced, or one the node does not hold (404: a pruned node holds no block below its
// pruning index, nor the past of its solid entry points). The bytes of a block outside
// the cone are read and dropped: such blocks are mostly ones the walk of an earlier
// milestone reached, which never get here. Ending the walk at a 404 is safe: the
// milestone's signed inclusion Merkle root covers every block of its cone in white-flag
// order, so chain.Verify, which runs before anything is written, refuses the milestone if
// the node left out a block of the cone.
func (s *member) coneBlock(ctx context.Context, index uint32, id chain.MessageID) (*coneBlock, error) {
	route := "/blocks/" + id.String()
	type answer struct {
		raw []byte
		err error
	}
	bytesc := make(chan answer, 1)
	go func() {
		raw, err := s.c.get(ctx, route, mimeBinary)
		bytesc <- answer{raw, err}
	}()
	var meta tip25.BlockMetadataJSON
	err := s.c.getJSON(ctx, route+"/metadata", &meta)
	got := <-bytesc
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
	if got.err != nil {
		return nil, got.err
	}
	return checkBlock(id, got.raw, meta)
}

// checkBlock refuses bytes that are not the block asked for: they must hash to its ID,
// decode strictly, and name the parents its metadata names.
func checkBlock(id chain.MessageID, raw []byte, meta tip25.BlockMetadataJSON) (*coneBlock, error) {
	refuse := func(format string, args ...any) error {
		return source.Refuse(fmt.Errorf("GET %s/blocks/%s: %s", apiBase, id, fmt.Sprintf(format, args...)))
	}
	if got := chain.MessageIDOf(raw); got != id {
		return nil, refuse("the bytes hash to %s", got)
	}
	msg, err := chain.DecodeMessage(raw)
	if err != nil {
		return nil, source.Refuse(fmt.Errorf("GET %s/blocks/%s: %w", apiBase, id, err))
	}
	if !slices.Equal(idTexts(msg.Parents), meta.Parents) {
		return nil, refuse("metadata names parents %v, the block %v", meta.Parents, idTexts(msg.Parents))
	}
	return &coneBlock{id: id, raw: raw, msg: msg, meta: meta}, nil
}

func idTexts(ids []chain.MessageID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.String()
	}
	return out
}
