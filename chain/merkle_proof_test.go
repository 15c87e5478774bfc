package chain_test

import (
	"encoding/hex"
	"errors"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

// inx-chronicle's Merkle hasher vectors (api/poi/merkle_hasher.rs).
var chronicleMerkleIDs = []string{
	"52fdfc072182654f163f5f0f9a621d729566c74d10037c4d7bbb0407d1e2c649",
	"81855ad8681d0d86d1e91e00167939cb6694d2c422acd208a0072939487f6999",
	"eb9d18a44784045d87f3c67cf22746e995af5a25367951baa2ff6cd471c483f1",
	"5fb90badb37c5821b6d95526a41a9504680b4e7c8b763a1b1d49d4955c848621",
	"6325253fec738dd7a9e28bf921119c160f0702448615bbda08313f6a8eb668d2",
	"0bf5059875921e668a5bdf2c7fc4844592d2572bcd0668d2d6c52f5054e2d083",
	"6bf84c7174cb7476364cc3dbd968b0f7172ed85794bb358b0c3b525da1786f9f",
}

func merkleIDs(t *testing.T, hexes []string) []chain.MessageID {
	t.Helper()
	out := make([]chain.MessageID, len(hexes))
	for i, h := range hexes {
		if _, err := hex.Decode(out[i][:], []byte(h)); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func TestMerkleRootChronicleVectors(t *testing.T) {
	ids := merkleIDs(t, chronicleMerkleIDs)
	for _, c := range []struct {
		ids  []chain.MessageID
		root string
	}{
		{nil, "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8"},
		{ids[:1], "3d1399c64ff0ae6a074afa4cd2ce4eab8d5c499c1da6afdd1d84b7447cc00544"},
		{ids, "bf67ce7ba23e8c0951b5abaec4f5524360d2c26d971ff226d3359fa70cdb0beb"},
	} {
		if got := chain.MerkleRoot(c.ids); hex.EncodeToString(got[:]) != c.root {
			t.Errorf("root of %d IDs: %x, want %s", len(c.ids), got, c.root)
		}
	}
}

// checkAuditPaths: the audit path of every ID of ids has the tree's form, names the ID
// (and not the others' leaves alone), and hashes to MerkleRoot.
func checkAuditPaths(t *testing.T, ids []chain.MessageID) {
	t.Helper()
	root := chain.MerkleRoot(ids)
	for i, id := range ids {
		p, err := chain.MerkleAuditPath(ids, id)
		if err != nil {
			t.Fatalf("%d of %d: %v", i, len(ids), err)
		}
		if err := p.Check(); err != nil {
			t.Errorf("%d of %d: %v", i, len(ids), err)
		}
		if !p.Contains(id) {
			t.Errorf("%d of %d: the path does not name the ID", i, len(ids))
		}
		if got := p.Root(); got != root {
			t.Errorf("%d of %d: path root %x, tree root %x", i, len(ids), got, root)
		}
	}
}

func TestMerkleAuditPathEveryPosition(t *testing.T) {
	ids := merkleIDs(t, chronicleMerkleIDs)
	for n := 1; n <= len(ids); n++ {
		checkAuditPaths(t, ids[:n])
	}
	var many []chain.MessageID
	for i := range 37 {
		many = append(many, chain.MessageID{byte(i), 0xaa})
	}
	checkAuditPaths(t, many)
}

func TestMerkleAuditPathRealMilestones(t *testing.T) {
	forEachRealMilestone(t, func(t *testing.T, index uint32) {
		m := realMilestone(t, index)
		all, applied := realTreeLeaves(m)
		if len(applied) == 0 {
			t.Fatal("no included transaction in the cone")
		}
		checkAuditPaths(t, all)
		checkAuditPaths(t, applied)
		for _, id := range all {
			if p, _ := chain.MerkleAuditPath(all, id); p.Root() != m.InclusionMerkleRoot {
				t.Fatalf("path of %s does not reach the milestone's inclusion root", id)
			}
		}
		for _, id := range applied {
			if p, _ := chain.MerkleAuditPath(applied, id); p.Root() != m.AppliedMerkleRoot {
				t.Fatalf("path of %s does not reach the milestone's applied root", id)
			}
		}
	})
}

func TestMerkleAuditPathNotInTree(t *testing.T) {
	ids := merkleIDs(t, chronicleMerkleIDs)
	if _, err := chain.MerkleAuditPath(ids[1:], ids[0]); !errors.Is(err, chain.ErrNotInTree) {
		t.Errorf("ID outside the tree: %v, want ErrNotInTree", err)
	}
	p, _ := chain.MerkleAuditPath(ids, ids[3])
	if p.Contains(ids[2]) {
		t.Error("the path of one ID names another as its leaf")
	}
}

// A flipped bit in any sibling hash moves the root.
func TestMerkleAuditPathTamper(t *testing.T) {
	ids := merkleIDs(t, chronicleMerkleIDs)
	root := chain.MerkleRoot(ids)
	p, _ := chain.MerkleAuditPath(ids, ids[5])
	n := 0
	for level := p; level != nil; {
		for _, e := range []*chain.MerkleElem{&level.Left, level.Right} {
			if e.Hash != nil {
				e.Hash[0] ^= 1
				if p.Root() == root {
					t.Errorf("flipped sibling hash %d still reaches the root", n)
				}
				e.Hash[0] ^= 1
				n++
			}
		}
		next := level.Left.Path
		if level.Right != nil && level.Right.Path != nil {
			next = level.Right.Path
		}
		level = next
	}
	if n != 3 || p.Root() != root {
		t.Errorf("%d sibling hashes in a 7-leaf path (want 3), root restored %v", n, p.Root() == root)
	}
}

func TestMerklePathCheck(t *testing.T) {
	var h [32]byte
	id := chain.MessageID{1}
	for name, p := range map[string]*chain.MerklePath{
		"hash alone":      {Left: chain.MerkleElem{Hash: &h}},
		"empty element":   {Left: chain.MerkleElem{Value: &id}, Right: &chain.MerkleElem{}},
		"two in one":      {Left: chain.MerkleElem{Value: &id, Hash: &h}, Right: &chain.MerkleElem{Hash: &h}},
		"bad nested path": {Left: chain.MerkleElem{Path: &chain.MerklePath{}}, Right: &chain.MerkleElem{Hash: &h}},
	} {
		if err := p.Check(); !errors.Is(err, chain.ErrBadMerklePath) {
			t.Errorf("%s: %v, want ErrBadMerklePath", name, err)
		}
	}
}

// realTreeLeaves are the leaves of a real milestone's inclusion tree (its cone) and of its
// applied tree (the blocks of included transactions), in white-flag order.
func realTreeLeaves(m *realdata.Milestone) (all, applied []chain.MessageID) {
	for _, b := range m.Cone {
		all = append(all, b.ID)
		if b.InclusionState == "included" {
			applied = append(applied, b.ID)
		}
	}
	return all, applied
}
