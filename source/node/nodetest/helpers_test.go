package nodetest

import (
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

var client = &http.Client{Timeout: 10 * time.Second}

func newServer(t *testing.T) (*Server, *realdata.Set) {
	t.Helper()
	set, err := realdata.Load()
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(set)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, set
}

type answer struct {
	status int
	ctype  string
	body   []byte
}

// get requests path with header pairs (name, value, ...).
func get(t *testing.T, s *Server, path string, header ...string) answer {
	t.Helper()
	a, err := tryGet(client, s, http.MethodGet, path, header...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func tryGet(c *http.Client, s *Server, method, path string, header ...string) (answer, error) {
	req, err := http.NewRequest(method, s.URL()+path, nil)
	if err != nil {
		return answer{}, err
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header.Get("Content-Type"), body}, err
}

// getBinary requests path as serialized bytes.
func getBinary(t *testing.T, s *Server, path string) answer {
	t.Helper()
	return get(t, s, path, "Accept", MIMEBinary)
}

// getJSON requests path as JSON, wants 200 and decodes the body into v.
func getJSON(t *testing.T, s *Server, path string, v any) {
	t.Helper()
	a := get(t, s, path, "Accept", MIMEJSON)
	if a.status != http.StatusOK || a.ctype != MIMEJSON {
		t.Fatalf("GET %s: %d %s %s", path, a.status, a.ctype, a.body)
	}
	if err := json.Unmarshal(a.body, v); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
}

// wantError checks the status and TIP-25 error body of an answer.
func wantError(t *testing.T, what string, a answer, status int) {
	t.Helper()
	var e errorBody
	if a.status != status || a.ctype != MIMEJSON || json.Unmarshal(a.body, &e) != nil ||
		e.Error.Code != strconv.Itoa(status) || e.Error.Message == "" {
		t.Errorf("%s: %d %q %s, want %d with a TIP-25 error", what, a.status, a.ctype, a.body, status)
	}
}

func h0x(b []byte) string { return "0x" + hex.EncodeToString(b) }

func api(parts ...string) string { return "/api/core/v2/" + strings.Join(parts, "/") }
