package loadtest

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestAB compares an API with a proxy in front of the same API: both get the route mix
// in every round, in alternating order, and the report has a row per route of the mix.
func TestAB(t *testing.T) {
	base := serveChain(t, 20, defaultLimits)
	target, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	var proxied atomic.Int64
	proxy := httputil.NewSingleHostReverseProxy(target)
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proxied.Add(1)
		proxy.ServeHTTP(w, r)
	}))
	defer other.Close()
	var progress bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rep, err := RunAB(ctx, ABConfig{Config: Config{BaseURL: base, Workers: 2, Duration: 500 * time.Millisecond, Seed: 1,
		Progress: &progress}, OtherURL: other.URL, Rounds: 2})
	out := reportOf(t, rep, err, &progress)
	if rep.A.Total.Requests == 0 || rep.B.Total.Requests == 0 || int64(rep.B.Total.Requests) > proxied.Load() {
		t.Errorf("A %d, B %d requests, the proxy saw %d", rep.A.Total.Requests, rep.B.Total.Requests, proxied.Load())
	}
	for _, rt := range rep.A.Routes {
		if !strings.Contains(out.String(), "| "+rt.Route+" |") {
			t.Errorf("report lacks route %s", rt.Route)
		}
	}
	if !strings.Contains(progress.String(), "round 2: 2 clients on "+other.URL) ||
		strings.Index(progress.String(), "round 2: 2 clients on "+other.URL) > strings.Index(progress.String(), "round 2: 2 clients on "+base) {
		t.Errorf("round 2 does not start with B:\n%s", progress.String())
	}
}

func TestABRefusesAnIncompleteConfig(t *testing.T) {
	if _, err := RunAB(context.Background(), ABConfig{Config: Config{BaseURL: "http://127.0.0.1:1", Workers: 1,
		Duration: time.Second}, Rounds: 1}); err == nil {
		t.Error("a comparison without a second URL ran")
	}
}
