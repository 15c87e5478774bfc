package api

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
)

// testCoreErrors: malformed parameters are 400 naming the parameter, unknown keys 404,
// what a permanode cannot do 501, unknown paths 404, every one in TIP-25 error form.
func (e *realEnv) testCoreErrors(t *testing.T) {
	ms := e.set.Milestones[e.set.Lowest()]
	msID := chain.MilestoneID(ms.MilestoneID).String()
	unknown32 := "0x" + strings.Repeat("ab", 32)
	unknownOutput := unknown32 + "0000"
	base := e.base()
	for _, c := range []struct {
		method, path string
		status       int
		words        []string
	}{
		{"GET", "/blocks/0x12", 400, []string{"blockId"}},
		{"GET", "/blocks/" + strings.Repeat("ab", 32), 400, []string{"blockId"}},
		{"GET", "/blocks/0x12/metadata", 400, []string{"blockId"}},
		{"GET", "/transactions/zz/included-block", 400, []string{"transactionId"}},
		{"GET", "/transactions/0x1/included-block/metadata", 400, []string{"transactionId"}},
		{"GET", "/milestones/0x1", 400, []string{"milestoneId"}},
		{"GET", "/milestones/0x1/utxo-changes", 400, []string{"milestoneId"}},
		{"GET", "/milestones/by-index/abc", 400, []string{"index"}},
		{"GET", "/milestones/by-index/-1/utxo-changes", 400, []string{"index"}},
		{"GET", "/outputs/0x00", 400, []string{"outputId"}},
		{"GET", "/outputs/" + unknown32 + "/metadata", 400, []string{"outputId"}},
		{"GET", "/receipts/abc", 400, []string{"migratedAt"}},
		{"GET", "/blocks/" + msID + "?x=1", 400, []string{"x", "unknown query parameter"}},

		{"GET", "/blocks/" + unknown32, 404, []string{unknown32}},
		{"GET", "/blocks/" + unknown32 + "/metadata", 404, []string{unknown32}},
		{"GET", "/transactions/" + unknown32 + "/included-block", 404, []string{unknown32}},
		{"GET", "/transactions/" + unknown32 + "/included-block/metadata", 404, []string{unknown32}},
		{"GET", "/milestones/" + unknown32, 404, []string{unknown32}},
		{"GET", "/milestones/" + unknown32 + "/utxo-changes", 404, []string{unknown32}},
		{"GET", "/milestones/by-index/17338", 404, []string{"17338"}},
		{"GET", "/milestones/by-index/17341/utxo-changes", 404, []string{"17341"}},
		{"GET", "/outputs/" + unknownOutput, 404, []string{unknownOutput}},
		{"GET", "/outputs/" + unknownOutput + "/metadata", 404, []string{unknownOutput}},

		{"POST", "/blocks", 501, []string{"permanode", "submitting blocks"}},
		{"GET", "/tips", 501, []string{"permanode"}},
		{"GET", "/peers", 501, []string{"permanode"}},
		{"DELETE", "/peers/12D3KooW", 501, []string{"permanode"}},
		{"POST", "/control/database/prune", 501, []string{"permanode"}},
		{"POST", "/control/snapshots/create", 501, []string{"permanode", "creating snapshots"}},
		{"POST", "/whiteflag", 501, []string{"permanode", "white-flag"}},
		{"GET", "/nothing-here", 404, []string{"/api/core/v2/nothing-here"}},
		{"POST", "/control/snapshot/create", 501, []string{"permanode", "creating snapshots"}},
		{"GET", "/milestones/" + msID + "/nothing", 404, []string{"nothing"}},
		{"POST", "/outputs/" + unknownOutput, 405, []string{"read-only"}},
	} {
		coreDo(t, base, c.method, c.path, "").wantError(t, c.status, c.words...)
	}
	if a := coreGet(t, e.srv.URL, "/openapi.json"); a.status != http.StatusOK ||
		!strings.Contains(string(a.body), `"/api/core/v2/outputs/{outputId}/metadata"`) ||
		!strings.Contains(string(a.body), `"TIP25Error"`) || strings.Count(string(a.body), `"`+rest.SerializerMedia+`"`) != 5 {
		t.Errorf("/openapi.json lacks the core routes: %d", a.status)
	}
}
