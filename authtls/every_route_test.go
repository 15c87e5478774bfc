package authtls_test

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// docRoute is a GET operation of the API's OpenAPI document.
type docRoute struct {
	pattern   string
	params    []docParam
	responses []string // documented statuses
}

type docParam struct {
	Name        string `json:"name"`
	In          string `json:"in"`
	Description string `json:"description"`
	Required    bool   `json:"required"`
}

// documentedGets are the GET routes of the document the API serves, by pattern.
func documentedGets(t *testing.T, base string) []docRoute {
	code, body := get(t, base+"/openapi.json")
	var doc struct {
		Paths map[string]map[string]struct {
			Parameters []docParam                 `json:"parameters"`
			Responses  map[string]json.RawMessage `json:"responses"`
		} `json:"paths"`
	}
	if err := json.Unmarshal([]byte(body), &doc); code != http.StatusOK || err != nil {
		t.Fatalf("/openapi.json: %d, %v", code, err)
	}
	var out []docRoute
	for pattern, ops := range doc.Paths {
		if op, ok := ops["get"]; ok {
			out = append(out, docRoute{pattern: pattern, params: op.Parameters,
				responses: slices.Sorted(maps.Keys(op.Responses))})
		}
	}
	slices.SortFunc(out, func(a, b docRoute) int { return strings.Compare(a.pattern, b.pattern) })
	return out
}

// notServed are the routes whose documented 200 this test's keyspace cannot give, and why.
var notServed = map[string]int{
	// the simulated chain carries no receipt and the keyspace no bootstrap: no treasury is known
	"/api/core/v2/treasury": http.StatusNotFound,
}

// tooMany is the rate limits' answer, which every route documents under them.
const tooMany = "429"

// wantStatus is 200 for a route documenting it (given real keys, every lookup finds its
// row), else its one documented status: 501 or 404 for a node route a permanode refuses,
// the only 5xx the test accepts.
func wantStatus(t *testing.T, rt docRoute) int {
	if status, ok := notServed[rt.pattern]; ok {
		return status
	}
	if slices.Contains(rt.responses, "200") {
		return http.StatusOK
	}
	own := slices.DeleteFunc(slices.Clone(rt.responses), func(s string) bool { return s == tooMany })
	if len(own) != 1 {
		t.Fatalf("%s documents %v: no single expected answer", rt.pattern, rt.responses)
	}
	return atoi(t, own[0])
}

// target is rt's path with its path parameters and required query parameters filled
// from samples, and its selector.
func target(t *testing.T, rt docRoute, samples routeSamples) string {
	path, query := rt.pattern, url.Values{}
	for _, p := range rt.params {
		if p.In != "path" && !p.Required {
			continue
		}
		v, ok := samples.byDescription[p.Description]
		if !ok {
			t.Fatalf("%s: no sample value for %s parameter %q (%q): add one to newRouteSamples",
				rt.pattern, p.In, p.Name, p.Description)
		}
		if p.In == "path" {
			path = strings.ReplaceAll(path, "{"+p.Name+"}", url.PathEscape(v))
		} else {
			query.Set(p.Name, v)
		}
	}
	encoded := query.Encode()
	if sel := samples.selector[rt.pattern]; sel != "" {
		encoded = strings.TrimPrefix(encoded+"&"+sel, "&")
	}
	if encoded == "" {
		return path
	}
	return path + "?" + encoded
}

// askEveryRoute asks each route once and checks its status and the ledger it reports.
func askEveryRoute(t *testing.T, out *transcript, base string, routes []docRoute, samples routeSamples) {
	counts := map[int]int{}
	for _, rt := range routes {
		path := target(t, rt, samples)
		code, body := get(t, base+path)
		out.add(body)
		counts[code]++
		if want := wantStatus(t, rt); code != want {
			t.Errorf("GET %s: %d, want %d: %.400s", path, code, want, body)
			continue
		}
		if code == http.StatusOK {
			checkLedgerAtTip(t, rt.pattern, path, body)
		}
	}
	t.Logf("%d routes asked; answers by status %v", len(routes), counts)
	for pattern := range atTip {
		if !slices.ContainsFunc(routes, func(rt docRoute) bool { return rt.pattern == pattern }) {
			t.Errorf("%s is not in the document", pattern)
		}
	}
}
