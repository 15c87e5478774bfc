package api

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// TestReadyzDatabaseGone: with the database gone /readyz answers 503 within a second,
// with a body that names neither the driver nor a host.
func TestReadyzDatabaseGone(t *testing.T) {
	testcontainers.SkipShort(t)
	cfg := testcontainers.Config(t, "system")
	srv := downServer(t, cfg, Config{RequestTimeout: 10 * time.Second, Ops: true})
	defer srv.Close()
	start := time.Now()
	resp, body := send(t, http.MethodGet, srv.URL+"/readyz", "", "")
	took := time.Since(start)
	if resp.StatusCode != http.StatusServiceUnavailable || took > time.Second {
		t.Fatalf("/readyz: %d after %s, want 503 within 1s", resp.StatusCode, took)
	}
	text := strings.ToLower(string(body))
	for _, leak := range append([]string{"gocql", "session", "127.0.0.1", "dial"}, cfg.Hosts...) {
		if strings.Contains(text, strings.ToLower(leak)) {
			t.Errorf("/readyz body names %q: %s", leak, body)
		}
	}
}

// TestStaleSummaryServedWithoutWrites: with the sync summary missing, the routes that
// read it answer 200 and the API does not write the summary, so that a role that may
// only read serves them (the test node grants every role everything: the write is
// looked for in the summary row, written by "api" when the API stores it).
func TestStaleSummaryServedWithoutWrites(t *testing.T) {
	e := newEnv(t, sim.Options{Seed: 3, MessagesPerMilestone: 4, AddressPool: 10, TagPool: 2}, 12)
	raw := testcontainers.Session(t, e.cfg)
	del := "DELETE FROM indexer_meta WHERE concern = '" + store.SyncSummaryConcern + "'"
	if err := raw.Gocql().Query(del).Exec(); err != nil {
		t.Fatal(err)
	}
	s := New(store.New(raw, testChunk), Config{RequestTimeout: 10 * time.Second, HealthMaxAge: 100 * 365 * 24 * time.Hour})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	addr := chain.Address{}.Bech32(sim.HRP)
	for _, path := range []string{"/sync", "/health", "/api/core/v2/info", "/api/indexer/v1/outputs/basic",
		explorerPath + "/balance/" + addr} {
		if resp, body := send(t, http.MethodGet, srv.URL+path, "", ""); resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s with a stale summary: %d, want 200\n%s", path, resp.StatusCode, body)
		}
	}
	for _, row := range storetest.Rows(t, e.st, "SELECT updated_by FROM indexer_meta WHERE concern = '"+
		store.SyncSummaryConcern+"'") {
		if row["updated_by"] == "api" {
			t.Errorf("the API wrote the sync summary: %v", row)
		}
	}
}
