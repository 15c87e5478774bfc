package nodetest

import (
	"net/http"
	"strconv"
	"testing"
)

// Pruned at 17339 the node answers 404 for milestone 17339, its UTXO changes, the bytes
// and metadata of the blocks it referenced and of blocks before the set, and still serves
// 17340 and its blocks; /info names the pruning index. Indexes outside the set's range or
// at the confirmed milestone are refused.
func TestPruningIndex(t *testing.T) {
	s, set := newServer(t)
	if err := s.SetPruningIndex(17339); err != nil {
		t.Fatal(err)
	}
	var info struct {
		Status struct {
			PruningIndex uint32 `json:"pruningIndex"`
		} `json:"status"`
	}
	getJSON(t, s, api("info"), &info)
	if info.Status.PruningIndex != 17339 {
		t.Errorf("pruningIndex %d, want 17339", info.Status.PruningIndex)
	}
	wantError(t, "milestone 17339", getBinary(t, s, api("milestones", "by-index", "17339")), http.StatusNotFound)
	wantError(t, "utxo-changes 17339", get(t, s, api("milestones", "by-index", "17339", "utxo-changes")), http.StatusNotFound)
	pruned, kept := set.Milestones[17339].Cone[0], set.Milestones[17340].Cone[0]
	var outside [32]byte
	for id := range s.ix.outside {
		outside = id
		break
	}
	for _, id := range [][32]byte{pruned.ID, outside} {
		wantError(t, "block "+h0x(id[:]), getBinary(t, s, api("blocks", h0x(id[:]))), http.StatusNotFound)
		wantError(t, "metadata of "+h0x(id[:]), get(t, s, api("blocks", h0x(id[:]), "metadata")), http.StatusNotFound)
	}
	if a := getBinary(t, s, api("blocks", h0x(kept.ID[:]))); a.status != http.StatusOK {
		t.Errorf("block of 17340: %d %s", a.status, a.body)
	}
	if a := getBinary(t, s, api("milestones", "by-index", "17340")); a.status != http.StatusOK {
		t.Errorf("milestone 17340: %d %s", a.status, a.body)
	}
	for _, bad := range []uint32{17337, 17340} {
		if err := s.SetPruningIndex(bad); err == nil {
			t.Errorf("pruning index %d accepted", bad)
		}
	}
	if err := s.SetPruningIndex(0); err != nil {
		t.Fatal(err)
	}
	wantOK := getBinary(t, s, api("milestones", "by-index", strconv.Itoa(17339)))
	if wantOK.status != http.StatusOK {
		t.Errorf("milestone 17339 with pruning off: %d", wantOK.status)
	}
}
