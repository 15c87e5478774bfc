package rest

import (
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// TestWriteJSONSendsItsLength: an answer longer than net/http's 2 KiB buffer goes out
// with its Content-Length (not chunked), and decodes back to what was sent.
func TestWriteJSONSendsItsLength(t *testing.T) {
	long := map[string]string{"payload": strings.Repeat("ab", 5000)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, long)
	}))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got map[string]string
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if resp.ContentLength <= 10000 || len(resp.TransferEncoding) > 0 || got["payload"] != long["payload"] {
		t.Errorf("Content-Length %d, Transfer-Encoding %v, payload of %d bytes; want its length, not chunked, the payload",
			resp.ContentLength, resp.TransferEncoding, len(got["payload"]))
	}
}

// TestWriteJSONRefusesWhatDoesNotEncode: a value JSON cannot hold is a 500 with this
// API's error body, not a 200 cut off halfway.
func TestWriteJSONRefusesWhatDoesNotEncode(t *testing.T) {
	rec := httptest.NewRecorder()
	writeJSON(rec, http.StatusOK, map[string]float64{"x": math.Inf(1)})
	var e APIError
	if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || rec.Code != http.StatusInternalServerError || e.Title != "internal error" {
		t.Errorf("status %d, body %q (%v); want 500 with an internal error body", rec.Code, rec.Body, err)
	}
	if n, _ := strconv.Atoi(rec.Header().Get("Content-Length")); n != rec.Body.Len() {
		t.Errorf("Content-Length %q for a body of %d bytes", rec.Header().Get("Content-Length"), rec.Body.Len())
	}
}
