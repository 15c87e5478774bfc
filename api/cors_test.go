package api

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
)

func TestParseAllowedOrigins(t *testing.T) {
	good := map[string][]string{
		"":  nil,
		"*": {"*"},
		"https://Explorer.example, http://localhost:3000/": {"https://explorer.example", "http://localhost:3000"},
	}
	for in, want := range good {
		got, err := ParseAllowedOrigins(in)
		if err != nil || len(got) != len(want) {
			t.Errorf("%q: %v, %v; want %v", in, got, err, want)
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%q: %v, want %v", in, got, want)
			}
		}
	}
	for _, bad := range []string{"explorer.example", "ftp://x", "https://x/path", "https://x?q=1", "https://"} {
		if _, err := ParseAllowedOrigins(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestCORS(t *testing.T) {
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) })
	do := func(h http.Handler, method, origin string, preflight bool) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, "/api/core/v2/info", nil)
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		if preflight {
			r.Header.Set("Access-Control-Request-Method", "GET")
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	listed := withCORS([]string{"https://explorer.example"}, next)
	cases := []struct {
		name           string
		h              http.Handler
		method, origin string
		preflight      bool
		status         int
		allow          string
	}{
		{"off by default", withCORS(nil, next), "GET", "https://explorer.example", false, http.StatusTeapot, ""},
		{"listed origin", listed, "GET", "https://explorer.example", false, http.StatusTeapot, "https://explorer.example"},
		{"other origin", listed, "GET", "https://evil.example", false, http.StatusTeapot, ""},
		{"no origin", listed, "GET", "", false, http.StatusTeapot, ""},
		{"preflight", listed, "OPTIONS", "https://explorer.example", true, http.StatusNoContent, "https://explorer.example"},
		{"preflight of another origin", listed, "OPTIONS", "https://evil.example", true, http.StatusTeapot, ""},
		{"any origin", withCORS([]string{"*"}, next), "GET", "https://x.example", false, http.StatusTeapot, "*"},
	}
	for _, c := range cases {
		w := do(c.h, c.method, c.origin, c.preflight)
		if w.Code != c.status || w.Header().Get("Access-Control-Allow-Origin") != c.allow {
			t.Errorf("%s: %d, allow-origin %q; want %d, %q", c.name, w.Code,
				w.Header().Get("Access-Control-Allow-Origin"), c.status, c.allow)
		}
		// A shared cache must key every answer by Origin once any origin is allowed: the
		// answers to a listed origin, another one and none differ.
		if vary := w.Header().Values("Vary"); (c.name != "off by default") != slices.Contains(vary, "Origin") {
			t.Errorf("%s: Vary %q", c.name, vary)
		}
		if c.preflight && c.status == http.StatusNoContent && w.Header().Get("Access-Control-Allow-Methods") == "" {
			t.Errorf("%s: no Access-Control-Allow-Methods", c.name)
		}
	}
}
