package api

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// TestPoIValidateRoutesPost: the validate routes take POST only (GET is a 405 naming
// POST), and a page of another origin may post to them (the CORS preflight allows POST).
func TestPoIValidateRoutesPost(t *testing.T) {
	s := New(store.New(nil, testChunk), Config{AllowOrigins: []string{"*"}})
	for _, tree := range []string{"referenced-block", "applied-block"} {
		path := poiPrefix + "/" + tree + "/validate"
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != http.MethodPost {
			t.Errorf("GET %s: %d, Allow %q; want 405 and POST", path, rec.Code, rec.Header().Get("Allow"))
		}
		req := httptest.NewRequest(http.MethodOptions, path, nil)
		req.Header.Set("Origin", "https://explorer.example")
		req.Header.Set("Access-Control-Request-Method", http.MethodPost)
		rec = httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, req)
		if methods := rec.Header().Get("Access-Control-Allow-Methods"); !strings.Contains(methods, http.MethodPost) {
			t.Errorf("preflight of POST %s: allowed methods %q", path, methods)
		}
	}
}
