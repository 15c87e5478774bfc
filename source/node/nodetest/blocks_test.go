package nodetest

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
	"golang.org/x/crypto/blake2b"
)

func TestBlocks(t *testing.T) {
	s, set := newServer(t)
	for idx, m := range set.Milestones {
		for _, b := range m.Cone {
			a := getBinary(t, s, api("blocks", h0x(b.ID[:])))
			if a.status != http.StatusOK || a.ctype != MIMEBinary || !bytes.Equal(a.body, b.Raw) {
				t.Fatalf("%d: block %x: %d %s", idx, b.ID, a.status, a.ctype)
			}
			checkMetadata(t, s, b)
		}
	}
}

func checkMetadata(t *testing.T, s *Server, b realdata.Block) {
	t.Helper()
	var md blockMetadataJSON
	getJSON(t, s, api("blocks", h0x(b.ID[:]), "metadata"), &md)
	ok := md.BlockID == h0x(b.ID[:]) && len(md.Parents) == len(b.Parents) && md.IsSolid &&
		md.ReferencedByMilestoneIndex == b.ReferencedBy && md.MilestoneIndex == b.MilestoneIndex &&
		md.LedgerInclusionState == b.InclusionState && md.ConflictReason == b.ConflictReason &&
		md.WhiteFlagIndex != nil && *md.WhiteFlagIndex == b.WhiteFlagIndex && !md.ShouldPromote && !md.ShouldReattach
	for i := range b.Parents {
		ok = ok && md.Parents[i] == h0x(b.Parents[i][:])
	}
	if !ok {
		t.Errorf("block %x: metadata %+v", b.ID, md)
	}
}

// TestOutsideParents: parents outside every cone (46 named by 17339's cone, 10 by 17340's) answer
// metadata referenced below the set, and 404 for their bytes, which the data lacks.
func TestOutsideParents(t *testing.T) {
	s, set := newServer(t)
	inData := map[[32]byte]bool{}
	for _, m := range set.Milestones {
		for _, b := range m.Cone {
			inData[b.ID] = true
		}
	}
	for idx, want := range map[uint32]int{17339: 46, 17340: 10} {
		outside := map[[32]byte]bool{}
		for _, b := range set.Milestones[idx].Cone {
			for _, p := range b.Parents {
				if !inData[p] {
					outside[p] = true
				}
			}
		}
		if len(outside) != want {
			t.Errorf("%d: %d outside parents, want %d", idx, len(outside), want)
		}
		for p := range outside {
			var md blockMetadataJSON
			getJSON(t, s, api("blocks", h0x(p[:]), "metadata"), &md)
			if md.ReferencedByMilestoneIndex != 17338 || md.LedgerInclusionState != "noTransaction" || !md.IsSolid ||
				md.Parents == nil || len(md.Parents) != 0 || md.WhiteFlagIndex != nil {
				t.Errorf("outside parent %x: %+v", p, md)
			}
			wantError(t, "outside block bytes", getBinary(t, s, api("blocks", h0x(p[:]))), http.StatusNotFound)
		}
	}
}

func TestBlockErrors(t *testing.T) {
	s, set := newServer(t)
	unknown := h0x(bytes.Repeat([]byte{0x5a}, 32))
	wantError(t, "unknown block", getBinary(t, s, api("blocks", unknown)), http.StatusNotFound)
	wantError(t, "unknown metadata", get(t, s, api("blocks", unknown, "metadata")), http.StatusNotFound)
	for _, bad := range []string{"0x1234", "abcd", unknown[2:] + "00", "0x" + string(bytes.Repeat([]byte("zz"), 32))} {
		wantError(t, "bad ID "+bad, getBinary(t, s, api("blocks", bad)), http.StatusBadRequest)
		wantError(t, "bad ID metadata "+bad, get(t, s, api("blocks", bad, "metadata")), http.StatusBadRequest)
	}
	id := set.Milestones[17339].Cone[0].ID
	wantError(t, "block as JSON", get(t, s, api("blocks", h0x(id[:])), "Accept", MIMEJSON), http.StatusUnsupportedMediaType)
}

// TestBlocksAboveConfirmed: with the tip at 17339, 17340's cone is served but not referenced.
func TestBlocksAboveConfirmed(t *testing.T) {
	s, set := newServer(t)
	if err := s.SetConfirmed(17339); err != nil {
		t.Fatal(err)
	}
	b := set.Milestones[17340].Cone[0] // carries milestone 17339
	if a := getBinary(t, s, api("blocks", h0x(b.ID[:]))); a.status != http.StatusOK {
		t.Errorf("block of 17340's cone: %d", a.status)
	}
	var md blockMetadataJSON
	getJSON(t, s, api("blocks", h0x(b.ID[:]), "metadata"), &md)
	if md.ReferencedByMilestoneIndex != 0 || md.LedgerInclusionState != "" || md.WhiteFlagIndex != nil ||
		md.MilestoneIndex != 0 || !md.IsSolid || len(md.Parents) != len(b.Parents) {
		t.Errorf("unreferenced metadata %+v", md)
	}
	checkMetadata(t, s, set.Milestones[17339].Cone[5])
}

func TestCorruptBlock(t *testing.T) {
	s, set := newServer(t)
	b := set.Milestones[17340].Cone[7]
	path := api("blocks", h0x(b.ID[:]))
	s.CorruptBlock(b.ID, true)
	a := getBinary(t, s, path)
	if a.status != http.StatusOK || len(a.body) != len(b.Raw) || blake2b.Sum256(a.body) == b.ID {
		t.Errorf("corrupt block: %d, %d bytes, hash matches: %v", a.status, len(a.body), blake2b.Sum256(a.body) == b.ID)
	}
	if other := set.Milestones[17340].Cone[8]; !bytes.Equal(getBinary(t, s, api("blocks", h0x(other.ID[:]))).body, other.Raw) {
		t.Error("another block is corrupt too")
	}
	s.CorruptBlock(b.ID, false)
	if a := getBinary(t, s, path); !bytes.Equal(a.body, b.Raw) {
		t.Error("block still corrupt")
	}
	if !bytes.Equal(b.Raw, set.Milestones[17340].Cone[7].Raw) || blake2b.Sum256(b.Raw) != b.ID {
		t.Error("CorruptBlock altered the set")
	}
}

// TestBlockMetadataShape: conflictReason is left out when 0, milestoneIndex except on milestone
// blocks, as Hornet does.
func TestBlockMetadataShape(t *testing.T) {
	s, set := newServer(t)
	cone := set.Milestones[17339].Cone
	plain := get(t, s, api("blocks", h0x(cone[0].ID[:]), "metadata")).body
	ms := get(t, s, api("blocks", h0x(cone[14].ID[:]), "metadata")).body
	if bytes.Contains(plain, []byte("conflictReason")) || bytes.Contains(plain, []byte("milestoneIndex")) ||
		!bytes.Contains(plain, []byte(`"ledgerInclusionState":"noTransaction"`)) || !bytes.Contains(plain, []byte(`"whiteFlagIndex":0`)) {
		t.Errorf("tagged-data block metadata %s", plain)
	}
	if !bytes.Contains(ms, []byte(`"milestoneIndex":17338`)) || !bytes.Contains(ms, []byte(`"referencedByMilestoneIndex":17339`)) {
		t.Errorf("milestone block metadata %s", ms)
	}
}
