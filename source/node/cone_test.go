package node

import "testing"

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
