package node

import "testing"

// A cone walk asks for each block's metadata and bytes together: as many requests of one
// as of the other, the bytes of the blocks outside the cone read and dropped.
func TestMetadataAndBytesTogether(t *testing.T) {
	n, set, s, ctx, _ := sourceOnFakeNode(t)
	if _, err := s.Milestone(ctx, 17340); err != nil {
		t.Fatal(err)
	}
	meta, raw := n.Count(routeMetadata), n.Count("blocks/{blockId}")
	if meta != raw || raw <= len(set.Milestones[17340].Cone) {
		t.Fatalf("%d metadata and %d bytes requests for a cone of %d blocks", meta, raw, len(set.Milestones[17340].Cone))
	}
}
