package api

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// coreAnswer is one answer of the node interface.
type coreAnswer struct {
	path   string
	status int
	media  string
	body   []byte
}

// coreDo sends one request; accept "" asks for JSON (sends no Accept, as iota.js's JSON calls).
func coreDo(t testing.TB, base, method, path, accept string) coreAnswer {
	t.Helper()
	header := ""
	if accept != "" {
		header = "Accept"
	}
	resp, body := send(t, method, base+path, header, accept)
	return coreAnswer{path: method + " " + path, status: resp.StatusCode, media: resp.Header.Get("Content-Type"), body: body}
}

func coreGet(t testing.TB, base, path string) coreAnswer {
	return coreDo(t, base, http.MethodGet, path, "")
}

// coreJSON GETs path and decodes its 200 answer into out.
func coreJSON(t testing.TB, base, path string, out any) coreAnswer {
	t.Helper()
	a := coreGet(t, base, path)
	if a.status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, a.status, a.body)
	}
	if err := json.Unmarshal(a.body, out); err != nil {
		t.Fatalf("GET %s: %v\n%s", path, err, a.body)
	}
	return a
}

// coreBytes GETs path asking for the binary form and checks its media type.
func coreBytes(t testing.TB, base, path string) []byte {
	t.Helper()
	a := coreDo(t, base, http.MethodGet, path, rest.SerializerMedia)
	if a.status != http.StatusOK || a.media != rest.SerializerMedia {
		t.Fatalf("GET %s (Accept %s): %d %q %.200s", path, rest.SerializerMedia, a.status, a.media, a.body)
	}
	return a.body
}

// wantError checks a TIP-25 error answer: the status, {"error":{"code","message"}} with
// the status as code, and a message holding every one of words.
func (a coreAnswer) wantError(t testing.TB, status int, words ...string) {
	t.Helper()
	var e tip25.ErrorJSON
	var raw map[string]json.RawMessage
	if a.status != status || json.Unmarshal(a.body, &e) != nil || json.Unmarshal(a.body, &raw) != nil || len(raw) != 1 ||
		e.Error.Code != strconv.Itoa(status) || e.Error.Message == "" {
		t.Errorf("%s: %d %s, want %d in TIP-25 error form", a.path, a.status, a.body, status)
		return
	}
	for _, w := range words {
		if !strings.Contains(e.Error.Message, w) {
			t.Errorf("%s: message %q does not say %q", a.path, e.Error.Message, w)
		}
	}
}

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	if out == nil {
		out = []string{}
	}
	return out
}
