package api

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// TestPoISimulated proves every referenced message of a simulated chain (conflicting
// transactions among them) through the routes, and refuses a proof to a message no
// milestone referenced yet (inx-chronicle's BlockNotReferenced, a 400), whose metadata
// comes without one.
func TestPoISimulated(t *testing.T) {
	testcontainers.SkipShort(t)
	e := newEnv(t, sim.Options{Seed: 11, MessagesPerMilestone: 12, AddressPool: 8}, 4)
	states := map[chain.InclusionState]int{}
	for id, m := range e.truth.Messages {
		states[m.InclusionState]++
		proof := e.createProof(t, "referenced-block", id)
		checkProofCarries(t, proof, id, m.Milestone)
		e.mustValidate(t, "referenced-block", proof, "referenced "+id.String())
		if m.InclusionState != chain.Included {
			status, body := e.fetch(t, poiPrefix+"/applied-block/create/"+id.String())
			wantRejected(t, "applied proof of a "+m.InclusionState.String()+" message", status, string(body),
				http.StatusBadRequest, "blockId", "not applied")
			continue
		}
		proof = e.createProof(t, "applied-block", id)
		e.mustValidate(t, "applied-block", proof, "applied "+id.String())
	}
	if states[chain.Included] == 0 || states[chain.NoTransaction] == 0 {
		t.Fatalf("inclusion states of the chain's messages: %v", states)
	}
	if len(e.pending) == 0 {
		t.Fatal("no unreferenced message")
	}
	id := e.pending[0].ID
	for _, tree := range []string{"referenced-block", "applied-block"} {
		status, body := e.fetch(t, poiPrefix+"/"+tree+"/create/"+id.String())
		wantRejected(t, tree+" proof of an unreferenced message", status, string(body), http.StatusBadRequest,
			"blockId", "not referenced")
	}
	var md map[string]json.RawMessage
	e.mustGet(t, "/api/core/v2/blocks/"+id.String()+"/metadata?proof=true", &md)
	if md["proof"] != nil || md["blockId"] == nil {
		t.Errorf("metadata of an unreferenced message with ?proof=true: %v", md)
	}
}
