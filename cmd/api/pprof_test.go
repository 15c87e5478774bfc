package main

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api"
	"github.com/stardust-indexer/stardust-indexer/ops"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
)

// The runtime's profiles are served on the ops address only: the API's own handler, even
// when it serves /metrics itself (-ops-addr ""), answers 404 under /debug/pprof/.
func TestNoProfilesOnTheAPIAddress(t *testing.T) {
	st, _ := storetest.New(t, 0)
	srv := httptest.NewServer(api.New(st, api.Config{RequestTimeout: 5 * time.Second, Registry: ops.NewRegistry(),
		Ops: true}).Handler())
	defer srv.Close()
	for path, want := range map[string]int{"/metrics": http.StatusOK, "/debug/pprof/heap?debug=1": http.StatusNotFound,
		"/debug/pprof/": http.StatusNotFound} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("GET %s on the API's address: %s, want %d", path, resp.Status, want)
		}
	}
}
