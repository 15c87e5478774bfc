package api

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/store"
)

type openAPIDoc struct {
	OpenAPI string `json:"openapi"`
	Paths   map[string]map[string]struct {
		Parameters []struct {
			Name     string `json:"name"`
			In       string `json:"in"`
			Required bool   `json:"required"`
		} `json:"parameters"`
		Responses map[string]json.RawMessage `json:"responses"`
	} `json:"paths"`
	Components struct {
		Schemas map[string]json.RawMessage `json:"schemas"`
	} `json:"components"`
}

// TestOpenAPIMatchesRoutes: the served document describes every registered route with
// exactly its parameters, every documented path is served by that very pattern, and
// every schema reference resolves.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	s := New(store.New(nil, testChunk), Config{Ops: true})
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/openapi.json", nil))
	var doc openAPIDoc
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil || doc.OpenAPI == "" {
		t.Fatalf("/openapi.json: %v\n%.300s", err, rec.Body.String())
	}
	for _, rt := range s.routes {
		op, ok := doc.Paths[rt.pattern]["get"]
		if !ok {
			t.Errorf("%s is registered, not documented", rt.pattern)
			continue
		}
		var want, got []string
		for _, p := range rt.path {
			want = append(want, "path:"+p.name)
		}
		for _, p := range rt.queryParams() {
			want = append(want, "query:"+p.name)
		}
		for _, p := range op.Parameters {
			got = append(got, p.In+":"+p.Name)
		}
		if slices.Sort(want); !slices.Equal(want, slices.Sorted(slices.Values(got))) {
			t.Errorf("%s: documented parameters %v, accepted %v", rt.pattern, got, want)
		}
		if _, ok := op.Responses["405"]; !ok || rt.canMiss && op.Responses["404"] == nil {
			t.Errorf("%s: responses %v lack 405 or 404", rt.pattern, slices.Sorted(maps.Keys(op.Responses)))
		}
	}
	for path := range doc.Paths {
		concrete := regexp.MustCompile(`\{[^}]+\}`).ReplaceAllString(path, "x")
		if _, pattern := s.mux.Handler(httptest.NewRequest(http.MethodGet, concrete, nil)); pattern != path {
			t.Errorf("documented %s: %s is served by pattern %q", path, concrete, pattern)
		}
	}
	for _, m := range regexp.MustCompile(`"#/components/schemas/([^"]+)"`).FindAllStringSubmatch(rec.Body.String(), -1) {
		if doc.Components.Schemas[m[1]] == nil {
			t.Errorf("reference to missing schema %s", m[1])
		}
	}
}
