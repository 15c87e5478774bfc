package node

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// A cone walk asks for each block's metadata once and for the bytes of every block of
// the cone: with the metadata while requests do not queue for the node's limit, after
// it (only for blocks in the cone) while they do.
func TestConeBytesAndMetadata(t *testing.T) {
	n, set, s, ctx, _ := sourceOnFakeNode(t)
	if _, err := s.Milestone(ctx, 17340); err != nil {
		t.Fatal(err)
	}
	meta, raw := n.Count(routeMetadata), n.Count("blocks/{blockId}")
	if cone := len(set.Milestones[17340].Cone); raw < cone || meta < raw {
		t.Fatalf("%d metadata and %d bytes requests for a cone of %d blocks", meta, raw, cone)
	}
}

// A walk starts workers for the blocks it has queued, not Concurrency of them: the
// source reads milestones ahead while it catches up, and a walk that parks Concurrency
// goroutines each had the indexer at thousands of goroutines whenever it caught up.
func TestConeWalkStartsWorkersAsItNeedsThem(t *testing.T) {
	_, set, s, ctx, _ := sourceOnFakeNode(t)
	m := set.Milestones[17340]
	parents := make([]chain.MessageID, len(m.Parents))
	for i, p := range m.Parents {
		parents[i] = chain.MessageID(p[:])
	}
	w, err := s.members[0].walk(ctx, m.Index, parents, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.cone) != len(m.Cone) {
		t.Fatalf("walk found %d blocks, the cone has %d", len(w.cone), len(m.Cone))
	}
	if w.started == 0 || w.started > len(w.asked) || w.started >= s.members[0].cfg.Concurrency {
		t.Fatalf("walk of %d blocks (%d asked) started %d workers; Concurrency %d",
			len(w.cone), len(w.asked), w.started, s.members[0].cfg.Concurrency)
	}
	t.Logf("walk of %d blocks (%d asked) started %d workers", len(w.cone), len(w.asked), w.started)
}
