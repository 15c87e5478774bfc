package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/testsupport/httpcall"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

const poiPrefix = "/api/poi/v1"

// postJSON posts body to path and returns the status and the answer's body.
func (e *env) postJSON(t testing.TB, path string, body []byte) (int, []byte) {
	t.Helper()
	resp, out := httpcall.Post(t, e.srv.URL+path, "application/json", bytes.NewReader(body))
	return resp.StatusCode, out
}

// createProof fetches a block's proof of tree ("referenced-block" or "applied-block") as
// raw JSON; it fails the test unless the answer is 200.
func (e *env) createProof(t testing.TB, tree string, id chain.MessageID) json.RawMessage {
	t.Helper()
	status, body := e.fetch(t, poiPrefix+"/"+tree+"/create/"+id.String())
	if status != http.StatusOK {
		t.Fatalf("create %s proof of %s: %d %s", tree, id, status, body)
	}
	return body
}

// validateProof posts a proof to tree's validate route and returns the status, the
// verdict (on 200) and the body.
func (e *env) validateProof(t testing.TB, tree string, proof []byte) (int, bool, string) {
	t.Helper()
	status, body := e.postJSON(t, poiPrefix+"/"+tree+"/validate", proof)
	var v struct {
		Valid *bool `json:"valid"`
	}
	if status == http.StatusOK {
		if err := json.Unmarshal(body, &v); err != nil || v.Valid == nil {
			t.Fatalf("validate %s: %v %s", tree, err, body)
		}
		return status, *v.Valid, string(body)
	}
	return status, false, string(body)
}

// mustValidate fails the test unless the proof validates in tree.
func (e *env) mustValidate(t testing.TB, tree string, proof []byte, what string) {
	t.Helper()
	if status, valid, body := e.validateProof(t, tree, proof); status != http.StatusOK || !valid {
		t.Errorf("%s: validate %s: %d %s", what, tree, status, body)
	}
}

// wantInvalid fails the test unless the proof answers valid:false in tree.
func (e *env) wantInvalid(t testing.TB, tree string, proof []byte, what string) {
	t.Helper()
	if status, valid, body := e.validateProof(t, tree, proof); status != http.StatusOK || valid {
		t.Errorf("%s: validate %s: %d %s, want valid:false", what, tree, status, body)
	}
}

// wantRejected fails the test unless the answer is status with the words in its body.
func wantRejected(t testing.TB, what string, status int, body string, wantStatus int, words ...string) {
	t.Helper()
	if status != wantStatus {
		t.Errorf("%s: status %d, want %d: %s", what, status, wantStatus, body)
	}
	for _, w := range words {
		if !strings.Contains(body, w) {
			t.Errorf("%s: %q does not name %q", what, body, w)
		}
	}
}

// proofParts splits a proof into its members, for tampering.
func proofParts(t testing.TB, proof []byte) map[string]json.RawMessage {
	t.Helper()
	var parts map[string]json.RawMessage
	if err := json.Unmarshal(proof, &parts); err != nil {
		t.Fatal(err)
	}
	return parts
}

func joinParts(t testing.TB, parts map[string]json.RawMessage) []byte {
	t.Helper()
	out, err := json.Marshal(parts)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// proofBlockID is the ID of the block a proof carries (the hash of its bytes).
func proofBlockID(t testing.TB, proof []byte) chain.MessageID {
	t.Helper()
	m, err := tip25.DecodeBlock(proofParts(t, proof)["block"])
	if err != nil {
		t.Fatal(err)
	}
	return m.ID()
}

// flipAfter flips a bit of the first hex digit after the first occurrence of marker
// (a key and the opening of its 0x value, such as `"h":"0x`).
func flipAfter(t testing.TB, data []byte, marker string) []byte {
	t.Helper()
	s := string(data)
	i := strings.Index(s, marker)
	if i < 0 {
		t.Fatalf("no %s in %.200s", marker, s)
	}
	at := i + len(marker)
	flipped := "0"
	if s[at] == '0' {
		flipped = "1"
	}
	return []byte(s[:at] + flipped + s[at+1:])
}
