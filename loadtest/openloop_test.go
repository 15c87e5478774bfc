package loadtest

import (
	"bytes"
	"context"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// An open-loop run at a fixed rate against an API with cmd/api's default limits, spread
// over distinct client addresses: every scheduled request is sent and answered as
// expected (no 429: each client stays within the per-client rate), on every route.
func TestOpenLoop(t *testing.T) {
	base := serveChain(t, 30, defaultLimits)
	var progress bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rep, err := RunOpen(ctx, OpenConfig{BaseURL: base, Rate: 200, Duration: 3 * time.Second, Clients: 16,
		DistinctClients: true, Seed: 1, Progress: &progress})
	if err != nil {
		t.Fatalf("%v\n%s", err, progress.String())
	}
	var out strings.Builder
	rep.WriteText(&out)
	t.Logf("\n%s\n%s", progress.String(), out.String())
	if rep.Sent != 600 || rep.Skipped != 0 || rep.Phase.Total.Requests != rep.Sent {
		t.Errorf("sent %d, skipped %d, answered %d; want 600 sent and answered", rep.Sent, rep.Skipped, rep.Phase.Total.Requests)
	}
	if rep.Failed() {
		t.Errorf("5xx or transport errors: %+v", rep.Phase.Total)
	}
	for _, rs := range rep.Phase.Routes {
		if rs.Requests == 0 || rs.Unexpected != 0 {
			t.Errorf("%s: %d requests, %d unexpected answers (4xx %d)", rs.Route, rs.Requests, rs.Unexpected, rs.S4xx)
		}
	}
	if tot := rep.Phase.Total; !(tot.P50 <= tot.P99 && tot.P99 <= tot.P999 && tot.P999 <= tot.Max) {
		t.Errorf("percentiles out of order: %+v", tot)
	}
}

// A server that stalls for half a second: every request scheduled during the stall is
// late by the rest of it, measured from its scheduled send time, so p99 shows the stall
// (a closed-loop client would have sent one request, waited, and hidden it).
func TestOpenLoopCountsStalls(t *testing.T) {
	stallUntil := time.Now().Add(500 * time.Millisecond) // the run starts at once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(time.Until(stallUntil))
	}))
	defer srv.Close()
	routes := []Route{{Name: "/x", Weight: 1, Path: func(*rand.Rand) string { return "/x" }}}
	cfg := OpenConfig{BaseURL: srv.URL, Rate: 100, Duration: time.Second, Clients: 4}
	cfg.defaults()
	rep := &OpenReport{}
	samples, start := rep.schedule(context.Background(), cfg, openClients(cfg), routes)
	ph := phaseOf("stall", routes, samples, time.Since(start))
	if rep.Sent != 100 || ph.Total.Requests != 100 || ph.Total.S2xx != 100 {
		t.Fatalf("sent %d, answered %+v", rep.Sent, ph.Total)
	}
	if ph.Total.P99 < 300*time.Millisecond || ph.Total.P50 > 300*time.Millisecond {
		t.Fatalf("p50 %s, p99 %s: want the stall in p99 (>= 300ms) and not in p50", ph.Total.P50, ph.Total.P99)
	}
}
