package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/explorer"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// TestPoIRealNetworkMetadataProof: ?proof=true on a block's metadata attaches the
// block's referenced proof, which validates; without it the metadata has no proof.
func TestPoIRealNetworkMetadataProof(t *testing.T) {
	e := newRealEnv(t)
	e.forEachBlock(t, func(index uint32, b realdata.Block) {
		id := chain.MessageID(b.ID)
		var md map[string]json.RawMessage
		e.mustGet(t, "/api/core/v2/blocks/"+id.String()+"/metadata?proof=true", &md)
		if md["proof"] == nil || md["blockId"] == nil {
			t.Fatalf("metadata of %s with ?proof=true: %v", id, md)
		}
		checkProofCarries(t, md["proof"], id, b.ReferencedBy)
		e.mustValidate(t, "referenced-block", md["proof"], "metadata proof of "+id.String())
	})
	id := chain.MessageID(e.set.Milestones[17339].Cone[0].ID).String()
	var md map[string]json.RawMessage
	e.mustGet(t, "/api/core/v2/blocks/"+id+"/metadata", &md)
	if md["proof"] != nil {
		t.Error("metadata carries a proof unasked")
	}
	status, body := e.fetch(t, "/api/core/v2/blocks/"+id+"/metadata?proof=maybe")
	wantRejected(t, "proof=maybe", status, string(body), http.StatusBadRequest, "proof")
}

// TestPoIRealNetworkHistoryProof: ?proof=true on an address's history gives each item
// the proof of the block whose transaction created the output (created items) or spent
// it (spent items), and each validates; an output created before the keyspace's first
// milestone (its block not indexed) has none.
func TestPoIRealNetworkHistoryProof(t *testing.T) {
	e := newRealEnv(t)
	addresses := map[string]bool{}
	for index := range e.set.Milestones {
		var p explorer.MilestoneUpdatesJSON
		e.mustGet(t, fmt.Sprintf("%s/milestones/by-index/%d/ledger-updates?pageSize=1000", explorerPath, index), &p)
		for _, it := range p.Items {
			addresses[it.Address] = true
		}
	}
	created, spent := 0, 0
	for address := range addresses {
		var h struct {
			Items []struct {
				OutputID       string          `json:"outputId"`
				IsSpent        bool            `json:"isSpent"`
				MilestoneIndex uint32          `json:"milestoneIndex"`
				Proof          json.RawMessage `json:"proof"`
			} `json:"items"`
		}
		e.mustGet(t, explorerPath+"/ledger/updates/by-address/"+url.PathEscape(address)+"?proof=true&pageSize=1000", &h)
		for _, it := range h.Items {
			what := fmt.Sprintf("%s item %s spent %t", address, it.OutputID, it.IsSpent)
			_, held := e.set.Milestones[it.MilestoneIndex]
			if it.Proof == nil != !held {
				t.Errorf("%s at milestone %d: proof %t, want one exactly for the keyspace's milestones", what,
					it.MilestoneIndex, it.Proof != nil)
			}
			if it.Proof == nil {
				continue
			}
			checkUpdateBlock(t, it.Proof, it.OutputID, it.IsSpent, what)
			e.mustValidate(t, "referenced-block", it.Proof, what)
			if it.IsSpent {
				spent++
			} else {
				created++
			}
		}
	}
	if created == 0 || spent == 0 {
		t.Fatalf("%d created and %d spent items proved over %d addresses", created, spent, len(addresses))
	}
}

// checkUpdateBlock fails the test unless the proof's block carries the transaction that
// created the output (or, spent, one that spends it).
func checkUpdateBlock(t *testing.T, proof []byte, outputID string, spent bool, what string) {
	t.Helper()
	m, err := tip25.DecodeBlock(proofParts(t, proof)["block"])
	if err != nil {
		t.Fatal(err)
	}
	tx, ok := m.Payload.(*chain.Transaction)
	if !ok {
		t.Fatalf("%s: the proof's block carries no transaction", what)
	}
	id, err := chain.ParseOutputID(outputID)
	if err != nil {
		t.Fatal(err)
	}
	if !spent {
		if tx.ID() != id.TransactionID() {
			t.Errorf("%s: the proof's block carries transaction %s", what, tx.ID())
		}
		return
	}
	for _, in := range tx.Inputs {
		if in.OutputID() == id {
			return
		}
	}
	t.Errorf("%s: the proof's block's transaction does not spend the output", what)
}
