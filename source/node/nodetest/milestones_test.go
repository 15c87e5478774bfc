package nodetest

import (
	"bytes"
	"net/http"
	"strconv"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

func TestMilestones(t *testing.T) {
	s, set := newServer(t)
	for idx, m := range set.Milestones {
		for _, path := range []string{api("milestones", "by-index", strconv.Itoa(int(idx))), api("milestones", h0x(m.MilestoneID[:]))} {
			a := getBinary(t, s, path)
			if a.status != http.StatusOK || a.ctype != MIMEBinary || !bytes.Equal(a.body, m.Payload) {
				t.Errorf("%s: %d %s", path, a.status, a.ctype)
			}
			var js milestoneJSON
			getJSON(t, s, path, &js)
			checkMilestoneJSON(t, js, m)
		}
	}
}

func checkMilestoneJSON(t *testing.T, js milestoneJSON, m *realdata.Milestone) {
	t.Helper()
	ok := js.Type == 7 && js.Index == m.Index && js.Timestamp == m.Timestamp && js.ProtocolVersion == 2 &&
		js.PreviousMilestoneID == h0x(m.PreviousMilestoneID[:]) && len(js.Parents) == len(m.Parents) &&
		js.InclusionMerkleRoot == h0x(m.InclusionMerkleRoot[:]) && js.AppliedMerkleRoot == h0x(m.AppliedMerkleRoot[:]) &&
		js.Metadata == "" && len(js.Signatures) == len(m.Signatures)
	for i, p := range m.Parents {
		ok = ok && js.Parents[i] == h0x(p[:])
	}
	for i, sig := range m.Signatures {
		ok = ok && js.Signatures[i] == signatureJSON{0, h0x(sig.PublicKey[:]), h0x(sig.Signature[:])}
	}
	if !ok {
		t.Errorf("milestone %d JSON: %+v", m.Index, js)
	}
}

// TestMilestoneJSONShape: empty metadata and options are left out, as TIP-25 says.
func TestMilestoneJSONShape(t *testing.T) {
	s, _ := newServer(t)
	a := get(t, s, api("milestones", "by-index", "17339"))
	if bytes.Contains(a.body, []byte(`"metadata"`)) || bytes.Contains(a.body, []byte(`"options"`)) ||
		!bytes.Contains(a.body, []byte(`"previousMilestoneId":"0xe339ae0b`)) {
		t.Errorf("JSON %s", a.body)
	}
}

func TestUTXOChanges(t *testing.T) {
	s, set := newServer(t)
	for idx, m := range set.Milestones {
		for _, path := range []string{api("milestones", "by-index", strconv.Itoa(int(idx)), "utxo-changes"),
			api("milestones", h0x(m.MilestoneID[:]), "utxo-changes")} {
			var js struct {
				Index           uint32   `json:"index"`
				CreatedOutputs  []string `json:"createdOutputs"`
				ConsumedOutputs []string `json:"consumedOutputs"`
			}
			getJSON(t, s, path, &js)
			ok := js.Index == idx && len(js.CreatedOutputs) == len(m.Created) && len(js.ConsumedOutputs) == len(m.Consumed)
			for i, o := range m.Created {
				ok = ok && js.CreatedOutputs[i] == h0x(o.OutputID[:]) && len(js.CreatedOutputs[i]) == 70
			}
			for i, o := range m.Consumed {
				ok = ok && js.ConsumedOutputs[i] == h0x(o.OutputID[:])
			}
			if !ok {
				t.Errorf("%s: %+v", path, js)
			}
		}
	}
}

func TestMilestoneErrors(t *testing.T) {
	s, set := newServer(t)
	unknownID := h0x(bytes.Repeat([]byte{7}, 32))
	for _, p := range []string{api("milestones", "by-index", "17338"), api("milestones", "by-index", "99999999"),
		api("milestones", unknownID), api("milestones", unknownID, "utxo-changes"),
		api("milestones", "by-index", "1", "utxo-changes")} {
		wantError(t, p, getBinary(t, s, p), http.StatusNotFound)
	}
	for _, p := range []string{api("milestones", "by-index", "-1"), api("milestones", "by-index", "x"),
		api("milestones", "by-index", "4294967296"), api("milestones", "0x12"), api("milestones", "0x12", "utxo-changes"),
		api("milestones", "by-index", "x", "utxo-changes")} {
		wantError(t, p, getBinary(t, s, p), http.StatusBadRequest)
	}
	// Above the confirmed milestone the node does not know the milestone yet.
	if err := s.SetConfirmed(17339); err != nil {
		t.Fatal(err)
	}
	id := set.Milestones[17340].MilestoneID
	for _, p := range []string{api("milestones", "by-index", "17340"), api("milestones", h0x(id[:])),
		api("milestones", "by-index", "17340", "utxo-changes"), api("milestones", h0x(id[:]), "utxo-changes")} {
		wantError(t, p, get(t, s, p), http.StatusNotFound)
	}
}
