package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

// TestPoIRealNetwork proves every block of Shimmer milestones 17339-17340 through the
// routes: its referenced proof (and, for an included transaction, its applied proof)
// carries the block and the milestone that referenced it and validates; the applied
// proof of any other block is refused.
func TestPoIRealNetwork(t *testing.T) {
	e := newRealEnv(t)
	applied := 0
	e.forEachBlock(t, func(index uint32, b realdata.Block) {
		id := chain.MessageID(b.ID)
		proof := e.createProof(t, "referenced-block", id)
		checkProofCarries(t, proof, id, b.ReferencedBy)
		e.mustValidate(t, "referenced-block", proof, "referenced "+id.String())
		if b.InclusionState != "included" {
			status, body := e.fetch(t, poiPrefix+"/applied-block/create/"+id.String())
			wantRejected(t, "applied proof of a "+b.InclusionState+" block", status, string(body), http.StatusBadRequest,
				"blockId", "not applied")
			e.wantInvalid(t, "applied-block", proof, "referenced proof of a "+b.InclusionState+" block as applied")
			return
		}
		applied++
		proof = e.createProof(t, "applied-block", id)
		checkProofCarries(t, proof, id, b.ReferencedBy)
		e.mustValidate(t, "applied-block", proof, "applied "+id.String())
	})
	if applied == 0 {
		t.Fatal("no block of an included transaction was proved")
	}
}

// checkProofCarries fails the test unless the proof carries the block (its bytes hash
// to id) and the milestone of the index that referenced it.
func checkProofCarries(t *testing.T, proof []byte, id chain.MessageID, index uint32) {
	t.Helper()
	if got := proofBlockID(t, proof); got != id {
		t.Errorf("the proof of %s carries block %s", id, got)
	}
	var ms struct {
		Index uint32 `json:"index"`
	}
	if err := json.Unmarshal(proofParts(t, proof)["milestone"], &ms); err != nil || ms.Index != index {
		t.Errorf("the proof of %s carries milestone %d (%v), want %d", id, ms.Index, err, index)
	}
}

// TestPoIRealNetworkTampered: a proof has the JSON members and types of inx-chronicle's
// answers (so has the verdict); it does not validate once a sibling hash of its path
// is flipped, once it carries the other milestone, or once it carries another block;
// a forged milestone signature is refused (inx-chronicle's error); so is every
// malformed part, by name.
func TestPoIRealNetworkTampered(t *testing.T) {
	e := newRealEnv(t)
	other := map[uint32]json.RawMessage{}
	proofs := map[uint32][]byte{}
	for index, ms := range e.set.Milestones {
		proofs[index] = e.createProof(t, "referenced-block", chain.MessageID(ms.Cone[len(ms.Cone)/2].ID))
	}
	other[17339], other[17340] = proofParts(t, proofs[17340])["milestone"], proofParts(t, proofs[17339])["milestone"]
	for index, proof := range proofs {
		what := fmt.Sprintf("milestone %d", index)
		checkProofShape(t, proof)
		e.mustValidate(t, "referenced-block", proof, what)
		_, _, answer := e.validateProof(t, "referenced-block", proof)
		checkRawShape(t, "validate answer", json.RawMessage(answer), chronicleValidShape)
		e.wantInvalid(t, "referenced-block", flipAfter(t, proof, `"h":"0x`), what+": flipped sibling hash")
		e.wantInvalid(t, "referenced-block", flipAfter(t, proof, `"value":"0x`), what+": flipped leaf")
		parts := proofParts(t, proof)
		parts["milestone"] = other[index]
		e.wantInvalid(t, "referenced-block", joinParts(t, parts), what+": the other milestone")
		parts = proofParts(t, proof)
		parts["milestone"] = flipAfter(t, parts["milestone"], `"signature":"0x`)
		status, _, body := e.validateProof(t, "referenced-block", joinParts(t, parts))
		wantRejected(t, what+": forged signature", status, body, http.StatusBadRequest, "milestone", "invalid signature")
		parts = proofParts(t, proof)
		parts["block"] = proofParts(t, proofs[map[uint32]uint32{17339: 17340, 17340: 17339}[index]])["block"]
		e.wantInvalid(t, "referenced-block", joinParts(t, parts), what+": another block")
	}
	checkMalformedProofs(t, e.env, proofs[17340])
}

func checkMalformedProofs(t *testing.T, e *env, proof []byte) {
	replace := func(member, with string) []byte {
		parts := proofParts(t, proof)
		parts[member] = json.RawMessage(with)
		return joinParts(t, parts)
	}
	for _, c := range []struct {
		what, name string
		body       []byte
	}{
		{"not JSON", "body", []byte("{")},
		{"unknown member", "body", replace("extra", "1")},
		{"missing proof", "body", []byte(strings.Replace(string(proof), `"proof":`, `"proof2":`, 1))},
		{"block of another shape", "block", replace("block", `{"protocolVersion":2}`)},
		{"milestone of another shape", "milestone", replace("milestone", `{"type":7}`)},
		{"path without left", "proof", replace("proof", `{"r":{"h":"0x00"}}`)},
		{"short hash", "proof", replace("proof", `{"l":{"value":"`+proofBlockID(t, proof).String()+`"},"r":{"h":"0x00"}}`)},
		{"hash alone", "proof", replace("proof", `{"l":{"h":"0x`+strings.Repeat("00", 32)+`"}}`)},
	} {
		status, _, body := e.validateProof(t, "referenced-block", c.body)
		wantRejected(t, c.what, status, body, http.StatusBadRequest, c.name)
	}
	big := append([]byte(`{"milestone":"`), make([]byte, rest.MaxPostBodyBytes)...)
	status, _, body := e.validateProof(t, "applied-block", big)
	wantRejected(t, "oversized body", status, body, http.StatusRequestEntityTooLarge, "body")
	status, raw := e.fetch(t, poiPrefix+"/referenced-block/validate")
	wantRejected(t, "GET of a validate route", status, string(raw), http.StatusMethodNotAllowed, "POST")
}

// TestPoIRealNetworkUnknownBlock: a block no milestone referenced (none indexed under
// its ID) has no proof: 404; a malformed ID is a 400 naming blockId.
func TestPoIRealNetworkUnknownBlock(t *testing.T) {
	e := newRealEnv(t)
	for _, tree := range []string{"referenced-block", "applied-block"} {
		status, body := e.fetch(t, poiPrefix+"/"+tree+"/create/"+chain.MessageID{0xde, 0xad}.String())
		wantRejected(t, tree+" of an unknown block", status, string(body), http.StatusNotFound, "not indexed")
		status, body = e.fetch(t, poiPrefix+"/"+tree+"/create/0x1234")
		wantRejected(t, tree+" of a malformed ID", status, string(body), http.StatusBadRequest, "blockId")
	}
}
