package api

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/core"
	"github.com/stardust-indexer/stardust-indexer/api/explorer"
	"github.com/stardust-indexer/stardust-indexer/api/indexer"
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
		Security  []map[string][]string      `json:"security"`
	} `json:"paths"`
	Components struct {
		Schemas         map[string]json.RawMessage `json:"schemas"`
		SecuritySchemes map[string]json.RawMessage `json:"securitySchemes"`
	} `json:"components"`
}

// TestOpenAPIMatchesRoutes: the served document describes every registered route with
// exactly its parameters and method, every documented path is served by that very
// pattern, and every schema reference resolves; admin routes appear, with their security
// scheme, only when an admin token is configured.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	for _, cfg := range []Config{{Ops: true}, {Ops: true, AdminToken: testToken}} {
		checkOpenAPI(t, New(store.New(nil, testChunk), cfg), cfg.AdminToken != "")
	}
}

func checkOpenAPI(t *testing.T, s *Server, admin bool) {
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/openapi.json", nil))
	var doc openAPIDoc
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil || doc.OpenAPI == "" {
		t.Fatalf("/openapi.json: %v\n%.300s", err, rec.Body.String())
	}
	admins := 0
	for _, rt := range s.routes {
		if len(doc.Paths[rt.Pattern]) != 1 {
			t.Errorf("%s: documented methods %v, want one", rt.Pattern, slices.Collect(maps.Keys(doc.Paths[rt.Pattern])))
		}
		op, ok := doc.Paths[rt.Pattern][rt.Method()]
		if !ok {
			t.Errorf("%s is registered, not documented (%s)", rt.Pattern, rt.Method())
			continue
		}
		var want, got []string
		for _, p := range rt.Path {
			want = append(want, "path:"+p.Name)
		}
		for _, p := range rt.QueryParams() {
			want = append(want, "query:"+p.Name)
		}
		for _, p := range op.Parameters {
			got = append(got, p.In+":"+p.Name)
		}
		if slices.Sort(want); !slices.Equal(want, slices.Sorted(slices.Values(got))) {
			t.Errorf("%s: documented parameters %v, accepted %v", rt.Pattern, got, want)
		}
		if _, ok := op.Responses["405"]; !ok && rt.Refuse == nil || rt.CanMiss && op.Responses["404"] == nil {
			t.Errorf("%s: responses %v lack 405 or 404", rt.Pattern, slices.Sorted(maps.Keys(op.Responses)))
		}
		if rt.Admin {
			admins++
			if len(op.Security) != 1 || op.Security[0]["adminToken"] == nil || op.Responses["401"] == nil {
				t.Errorf("%s: security %v, responses %v: want the admin token and a 401", rt.Pattern, op.Security,
					slices.Sorted(maps.Keys(op.Responses)))
			}
		}
	}
	if _, scheme := doc.Components.SecuritySchemes["adminToken"]; (admins > 0) != admin || scheme != admin {
		t.Errorf("admin token configured %t: %d admin routes, security scheme %t", admin, admins, scheme)
	}
	muxPattern := map[string]string{} // a route's ServeMux pattern (its own, unless it needs another)
	for i := range s.routes {
		muxPattern[s.routes[i].Pattern] = s.routes[i].MuxPattern()
	}
	for path := range doc.Paths {
		concrete := regexp.MustCompile(`\{[^}]+\}`).ReplaceAllString(path, "x")
		if _, pattern := s.mux.Handler(httptest.NewRequest(http.MethodGet, concrete, nil)); pattern != muxPattern[path] {
			t.Errorf("documented %s: %s is served by pattern %q", path, concrete, pattern)
		}
	}
	for _, m := range regexp.MustCompile(`"#/components/schemas/([^"]+)"`).FindAllStringSubmatch(rec.Body.String(), -1) {
		if doc.Components.Schemas[m[1]] == nil {
			t.Errorf("reference to missing schema %s", m[1])
		}
	}
}

// TestOpenAPIRevalidation: read routes document their 304 and cache headers; POST
// validations and probes, which are never stored, do not.
func TestOpenAPIRevalidation(t *testing.T) {
	rec := httptest.NewRecorder()
	New(store.New(nil, testChunk), Config{Ops: true}).Handler().ServeHTTP(rec,
		httptest.NewRequest(http.MethodGet, "/openapi.json", nil))
	var doc openAPIDoc
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for path, method := range map[string]string{core.CorePrefix + "/blocks/{blockId}": "get",
		explorer.ExplorerPrefix + "/balance/{address}": "get", indexer.Tip26Prefix + "/outputs/basic": "get"} {
		if doc.Paths[path][method].Responses["304"] == nil {
			t.Errorf("%s documents no 304", path)
		}
	}
	for path, method := range map[string]string{"/api/poi/v1/referenced-block/validate": "post", "/health": "get",
		"/readyz": "get"} {
		if doc.Paths[path][method].Responses["304"] != nil {
			t.Errorf("%s documents a 304 it never answers", path)
		}
	}
}
