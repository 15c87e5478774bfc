package api

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/tables"
	"github.com/stardust-indexer/stardust-indexer/chain"
)

// testOps: probes answer, and /metrics counts requests per route pattern and status
// class (run after the other subtests made requests).
func testOps(t *testing.T, e *env) {
	for _, path := range []string{"/healthz", "/readyz"} {
		if code := e.get(t, path, nil); code != http.StatusOK {
			t.Errorf("GET %s: %d", path, code)
		}
	}
	resp, err := http.Get(e.srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, series := range []string{
		`api_requests_total{code="2xx",route="/messages/{id}"}`,
		`api_requests_total{code="4xx",route="/messages/{id}"}`,
		`api_requests_total{code="4xx",route="unmatched"}`,
		`api_request_duration_seconds_bucket{code="2xx",route="/outputs",le="+Inf"}`,
	} {
		if !strings.Contains(string(body), series) {
			t.Errorf("/metrics lacks %s", series)
		}
	}
}

// testPendingOutputs: an output of a transaction seen but not referenced yet is found
// by ID, as not referenced, expected in the next milestone.
func testPendingOutputs(t *testing.T, e *env) {
	n := 0
	for _, um := range e.pending {
		tx := um.Message.TransactionOf()
		if tx == nil {
			continue
		}
		id := chain.NewOutputID(tx.ID(), 0)
		if e.truth.Outputs[id] != nil {
			continue // a re-attachment of an included transaction: the output is confirmed
		}
		var got tables.OutputAnswer
		e.mustGet(t, "/outputs/"+id.String(), &got)
		if got.Referenced || got.EstMilestoneIndex == nil || *got.EstMilestoneIndex != int32(um.EstMilestoneIndex) ||
			got.MessageID != um.ID.String() {
			t.Errorf("pending output %s: %+v", id, got.StateJSON)
		}
		n++
	}
	if n == 0 {
		t.Error("no pending transaction output to check")
	}
}
