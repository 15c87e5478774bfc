package api

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// TestStreamFailures: a stream that fails before its first chunk is flushed is answered
// with the failure's status and error body (what it had buffered is dropped); one that
// fails later keeps its 200 and ends its body with its failure record.
func TestStreamFailures(t *testing.T) {
	s := New(store.New(nil, testChunk), Config{})
	rt := &rest.Route{Pattern: "/export"}
	tooMany := &rest.APIError{Status: http.StatusUnprocessableEntity, Title: "too many outputs", Detail: "past the cap"}
	for _, c := range []struct {
		name    string
		written int
		err     error
		status  int
		body    string
	}{
		{"fails at once", 0, tooMany, http.StatusUnprocessableEntity, `"past the cap"}` + "\n"},
		{"fails within the first chunk", 100, tooMany, http.StatusUnprocessableEntity, `"past the cap"}` + "\n"},
		{"fails after a chunk", streamChunk + 1, errors.New("database gone"), http.StatusOK, "FAILED: database gone\n"},
		{"ends", streamChunk + 1, nil, http.StatusOK, "xxx"},
	} {
		st := &rest.Stream{Media: "text/csv", Filename: "a.csv",
			Write: func(_ context.Context, w rest.StreamWriter) error {
				_, _ = io.WriteString(w, strings.Repeat("x", c.written))
				return c.err
			},
			WriteFailure: func(w io.Writer, err error) { _, _ = io.WriteString(w, "FAILED: "+err.Error()+"\n") },
		}
		rec := httptest.NewRecorder()
		s.stream(rec, httptest.NewRequest(http.MethodGet, "/export", nil), rt, st)
		body := rec.Body.String()
		attached := rec.Header().Get("Content-Disposition") != ""
		if rec.Code != c.status || !strings.HasSuffix(body, c.body) || attached != (c.status == http.StatusOK) {
			t.Errorf("%s: %d %v %.80q, want %d ending %q", c.name, rec.Code, rec.Header(), body, c.status, c.body)
		}
	}
}
