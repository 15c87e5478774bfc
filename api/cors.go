package api

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// CORS lets browser explorers on other origins read the API. Off by default: a page
// of another origin can then not read answers, which is the browser's default. The
// API is read-only and takes no cookies, so allowing an origin exposes nothing a
// direct request would not; the admin routes stay out of reach (their bearer token
// header is not allowed cross-origin).

// corsMaxAge is how long (seconds) a browser may cache a preflight answer.
const corsMaxAge = "600"

// ParseAllowedOrigins reads -allow-origin: "*" or a comma-separated list of origins
// (scheme://host[:port]); "" allows none.
func ParseAllowedOrigins(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []string
	for _, o := range strings.Split(s, ",") {
		o = strings.TrimSuffix(strings.TrimSpace(o), "/")
		if o == "*" {
			out = append(out, o)
			continue
		}
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" || u.RawQuery != "" {
			return nil, fmt.Errorf("-allow-origin %q: want * or scheme://host[:port], comma-separated", o)
		}
		out = append(out, strings.ToLower(o))
	}
	return out, nil
}

// withCORS answers preflights and marks answers readable by the allowed origins.
func withCORS(allowed []string, next http.Handler) http.Handler {
	if len(allowed) == 0 {
		return next
	}
	anyOrigin := slices.Contains(allowed, "*")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Every answer varies by Origin (allowed, another or none), so a shared cache
		// never serves one origin's answer to another.
		w.Header().Add("Vary", "Origin")
		origin := r.Header.Get("Origin")
		if origin == "" || (!anyOrigin && !slices.Contains(allowed, strings.ToLower(origin))) {
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", origin)
		if anyOrigin {
			h.Set("Access-Control-Allow-Origin", "*")
		}
		h.Set("Access-Control-Expose-Headers", rest.CoverageHeader) // a page's script may read it
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			h.Set("Access-Control-Allow-Methods", "GET, HEAD, POST, OPTIONS") // POST: the proof checks
			h.Set("Access-Control-Allow-Headers", "Accept, Content-Type")
			h.Set("Access-Control-Max-Age", corsMaxAge)
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}
