package realdata

import (
	"bytes"
	"crypto/ed25519"
	"testing"

	"golang.org/x/crypto/blake2b"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// TestBlockIDs: every block ID is the hash of its raw bytes, and the metadata parents are the
// raw block's parents.
func TestBlockIDs(t *testing.T) {
	s := mustLoad(t)
	b2, err := Blocks2418187()
	if err != nil {
		t.Fatal(err)
	}
	all := append(append(append([]Block{}, s.Milestones[17339].Cone...), s.Milestones[17340].Cone...), b2...)
	if len(all) != 38+43+88 {
		t.Fatalf("%d blocks", len(all))
	}
	for _, b := range all {
		if blake2b.Sum256(b.Raw) != b.ID {
			t.Errorf("block %x: hash of raw differs", b.ID)
		}
		n := int(b.Raw[1])
		if n != len(b.Parents) {
			t.Fatalf("block %x: %d raw parents, %d in metadata", b.ID, n, len(b.Parents))
		}
		for i, p := range b.Parents {
			if !bytes.Equal(b.Raw[2+32*i:2+32*i+32], p[:]) {
				t.Errorf("block %x: parent %d differs from raw", b.ID, i)
			}
		}
	}
}

// TestMilestoneIDsAndSignatures: the ID is the hash of the serialized essence, and every
// signature verifies over the ID with a configured key applicable at that index.
func TestMilestoneIDsAndSignatures(t *testing.T) {
	s := mustLoad(t)
	for idx, m := range s.Milestones {
		if blake2b.Sum256(m.Essence) != m.MilestoneID {
			t.Errorf("%d: hash of essence %x differs from ID %x", idx, blake2b.Sum256(m.Essence), m.MilestoneID)
		}
		if len(m.Signatures) < s.KeyThreshold {
			t.Errorf("%d: %d signatures below threshold %d", idx, len(m.Signatures), s.KeyThreshold)
		}
		for _, sig := range m.Signatures {
			if !keyApplies(s.KeyRanges, sig.PublicKey, idx) {
				t.Errorf("%d: key %x not configured", idx, sig.PublicKey)
			}
			if !ed25519.Verify(sig.PublicKey[:], m.MilestoneID[:], sig.Signature[:]) {
				t.Errorf("%d: signature by %x does not verify", idx, sig.PublicKey)
			}
		}
	}
	if s.Milestones[17340].PreviousMilestoneID != s.Milestones[17339].MilestoneID {
		t.Error("17340's previous milestone ID is not 17339's ID")
	}
}

func keyApplies(ranges []chain.KeyRange, key [32]byte, index uint32) bool {
	for _, r := range ranges {
		if r.PublicKey == key && r.Start <= index && (r.End == 0 || index <= r.End) {
			return true
		}
	}
	return false
}

// TestMerkleRoots: the cone is complete and in white-flag order, since the milestone's Merkle
// roots (TIP-4) over it match.
func TestMerkleRoots(t *testing.T) {
	s := mustLoad(t)
	for idx, m := range s.Milestones {
		var all [][32]byte
		for _, b := range m.Cone {
			all = append(all, b.ID)
		}
		_, applied := includedTxs(t, m.Cone)
		if merkle(all) != m.InclusionMerkleRoot {
			t.Errorf("%d: inclusion merkle root differs", idx)
		}
		if merkle(applied) != m.AppliedMerkleRoot {
			t.Errorf("%d: applied merkle root differs", idx)
		}
	}
}

// TestMilestonePayloadInBlock: the payload serialized from 17339's JSON is byte for byte the
// payload of the block that carries it, which 17340 references; its parents are the block's.
func TestMilestonePayloadInBlock(t *testing.T) {
	s := mustLoad(t)
	m := s.Milestones[17339]
	var found int
	for _, b := range s.Milestones[17340].Cone {
		p, err := BlockPayload(b.Raw)
		if err != nil || PayloadType(p) != 7 || len(p) < 8 || p[4] != 0xbb || p[5] != 0x43 {
			continue // not the milestone payload of index 17339 (0x43bb)
		}
		found++
		if !bytes.Equal(p, m.Payload) {
			t.Errorf("block %x: payload differs from the one serialized from JSON", b.ID)
		}
		if b.MilestoneIndex != 17339 || b.WhiteFlagIndex != 0 {
			t.Errorf("block %x: milestone index %d, white-flag index %d", b.ID, b.MilestoneIndex, b.WhiteFlagIndex)
		}
		if !bytes.Equal(b.Raw[2:2+32*len(m.Parents)], flatten(m.Parents)) || int(b.Raw[1]) != len(m.Parents) {
			t.Errorf("block %x: parents differ from the milestone's", b.ID)
		}
	}
	if found != 1 {
		t.Fatalf("%d blocks carry milestone 17339", found)
	}
}

func flatten(ids [][32]byte) []byte {
	var out []byte
	for _, id := range ids {
		out = append(out, id[:]...)
	}
	return out
}
