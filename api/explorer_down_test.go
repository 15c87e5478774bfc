package api

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// TestExplorerDatabaseDown: with the database gone every explorer route answers 503
// with Retry-After, in this API's error form.
func TestExplorerDatabaseDown(t *testing.T) {
	testcontainers.SkipShort(t)
	srv := downServer(t, testcontainers.Config(t, "system"), Config{RequestTimeout: 300 * time.Millisecond})
	defer srv.Close()
	addr, id := chain.Address{}.Bech32(sim.HRP), "0x"+strings.Repeat("ab", 32)
	for _, path := range []string{"/balance/" + addr, "/addresses/" + addr + "/history",
		"/addresses/" + addr + "/export",
		"/ledger/updates/by-address/" + addr, "/milestones/by-index/3/blocks", "/milestones/" + id + "/blocks",
		"/milestones/by-index/3/ledger-updates", "/ledger/updates/by-milestone/" + id,
		"/ledger/richest-addresses", "/ledger/token-distribution", "/blocks/" + id + "/children",
		"/milestones?startTimestamp=1&endTimestamp=2"} {
		resp := checkError(t, srv.URL, errorCase{"GET", explorerPath + path, http.StatusServiceUnavailable, ""})
		if resp.Header.Get("Retry-After") == "" {
			t.Errorf("GET %s: no Retry-After", path)
		}
	}
}
