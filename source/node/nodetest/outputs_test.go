package nodetest

import (
	"bytes"
	"encoding/binary"
	"net/http"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

// TestOutputs: every created and consumed record is served, with metadata as of 17340.
func TestOutputs(t *testing.T) {
	s, set := newServer(t)
	spent := map[[34]byte]realdata.Spent{}
	var all []realdata.Output
	for _, m := range set.Milestones {
		all = append(all, m.Created...)
		for _, sp := range m.Consumed {
			spent[sp.OutputID] = sp
			all = append(all, sp.Output)
		}
	}
	for _, o := range all {
		a := getBinary(t, s, api("outputs", h0x(o.OutputID[:])))
		if a.status != http.StatusOK || a.ctype != MIMEBinary || !bytes.Equal(a.body, o.Raw) {
			t.Fatalf("output %x: %d %s", o.OutputID, a.status, a.ctype)
		}
		sp, isSpent := spent[o.OutputID]
		checkOutputMetadata(t, s, o, isSpent, sp, 17340)
	}
}

func checkOutputMetadata(t *testing.T, s *Server, o realdata.Output, isSpent bool, sp realdata.Spent, ledger uint32) {
	t.Helper()
	var md outputMetadataJSON
	getJSON(t, s, api("outputs", h0x(o.OutputID[:]), "metadata"), &md)
	want := outputMetadataJSON{BlockID: h0x(o.BlockID[:]), TransactionID: h0x(o.OutputID[:32]),
		OutputIndex: binary.LittleEndian.Uint16(o.OutputID[32:]), IsSpent: isSpent,
		MilestoneIndexBooked: o.Booked, MilestoneTimestampBooked: o.BookedTimestamp, LedgerIndex: ledger}
	if isSpent {
		want.MilestoneIndexSpent, want.MilestoneTimestampSpent, want.TransactionIDSpent = sp.Spent, sp.SpentTimestamp, h0x(sp.SpentBy[:])
	}
	if md != want {
		t.Errorf("output %x metadata:\n got %+v\nwant %+v", o.OutputID, md, want)
	}
}

// TestOutputsAtConfirmed: at 17339, outputs created in 17340 are unknown and those spent in
// 17340 still unspent.
func TestOutputsAtConfirmed(t *testing.T) {
	s, set := newServer(t)
	if err := s.SetConfirmed(17339); err != nil {
		t.Fatal(err)
	}
	for _, o := range set.Milestones[17340].Created {
		wantError(t, "output of 17340", getBinary(t, s, api("outputs", h0x(o.OutputID[:]))), http.StatusNotFound)
	}
	var checked int
	for _, sp := range set.Milestones[17340].Consumed {
		if sp.Booked <= 17339 {
			checkOutputMetadata(t, s, sp.Output, false, realdata.Spent{}, 17339)
			checked++
		}
	}
	sp := set.Milestones[17339].Consumed[0]
	checkOutputMetadata(t, s, sp.Output, true, sp, 17339)
	if checked == 0 {
		t.Error("no output spent in 17340 was booked by 17339")
	}
}

func TestOutputErrors(t *testing.T) {
	s, set := newServer(t)
	unknown := h0x(bytes.Repeat([]byte{9}, 34))
	wantError(t, "unknown output", getBinary(t, s, api("outputs", unknown)), http.StatusNotFound)
	wantError(t, "unknown metadata", get(t, s, api("outputs", unknown, "metadata")), http.StatusNotFound)
	for _, bad := range []string{unknown[:66], "0x" + unknown[4:] + "gg", unknown[2:] + "00"} {
		wantError(t, "bad ID", getBinary(t, s, api("outputs", bad)), http.StatusBadRequest)
		wantError(t, "bad ID metadata", get(t, s, api("outputs", bad, "metadata")), http.StatusBadRequest)
	}
	id := set.Milestones[17339].Created[0].OutputID
	wantError(t, "output as JSON", get(t, s, api("outputs", h0x(id[:]))), http.StatusUnsupportedMediaType)
}

// TestMisstateAndHideOutput: one output's metadata names another booking, or answers 404
// while its bytes are still served; other outputs are untouched, and off restores it.
func TestMisstateAndHideOutput(t *testing.T) {
	s, set := newServer(t)
	o, other := set.Milestones[17340].Consumed[0], set.Milestones[17340].Consumed[1]
	meta := api("outputs", h0x(o.OutputID[:]), "metadata")
	s.MisstateOutput(o.OutputID, &Booking{BlockID: [32]byte{7}, Index: o.Booked + 1, Timestamp: o.BookedTimestamp + 5})
	var md outputMetadataJSON
	getJSON(t, s, meta, &md)
	if md.BlockID != "0x07"+strings.Repeat("00", 31) ||
		md.MilestoneIndexBooked != o.Booked+1 || md.MilestoneTimestampBooked != o.BookedTimestamp+5 ||
		md.TransactionID != h0x(o.OutputID[:32]) || !md.IsSpent {
		t.Errorf("misstated metadata %+v", md)
	}
	checkOutputMetadata(t, s, other.Output, true, other, 17340)
	s.HideOutputMetadata(o.OutputID, true)
	wantError(t, "hidden metadata", get(t, s, meta), http.StatusNotFound)
	if a := getBinary(t, s, api("outputs", h0x(o.OutputID[:]))); a.status != http.StatusOK || !bytes.Equal(a.body, o.Raw) {
		t.Errorf("bytes of a hidden output: %d", a.status)
	}
	s.HideOutputMetadata(o.OutputID, false)
	s.MisstateOutput(o.OutputID, nil)
	checkOutputMetadata(t, s, o.Output, true, o, 17340)
}
