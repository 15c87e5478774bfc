package loadtest

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// TestFloodCompare runs the comparison briefly against an API with a low per-client
// rate (the normal clients stay within it): every phase answers the normal clients
// without a 5xx, both floods are answered 429 past the client's burst (the /health one
// by the probes' own rate), and the report gives a p99 ratio per flood.
func TestFloodCompare(t *testing.T) {
	limits := defaultLimits
	limits.Rate, limits.Burst = 5, 10
	limits.Tarpit = 0 // a held refusal would outlast these one-second phases
	// The comparison measures a flood refused past its burst: without the client's queue,
	// which would pace it to 5 a second instead.
	limits.ClientQueue = 0
	base := serveChain(t, 20, limits)
	var progress bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	targets := []string{"/health", "/api/core/v2/info"}
	rep, err := RunCompare(ctx, CompareConfig{Config: Config{BaseURL: base, Workers: 4, Duration: time.Second, Seed: 1,
		Progress: &progress, ClientRate: 4, DistinctClients: true}, Targets: targets, FloodConns: 8, Rounds: 2})
	out := reportOf(t, rep, err, &progress)
	for _, ph := range append([]Phase{rep.Alone}, rep.Flooded...) {
		if ph.Total.Requests == 0 || ph.Total.Errors != 0 || ph.Total.Unexpected != 0 {
			t.Errorf("%s: %s", ph.Name, ph.Total.line())
		}
	}
	health, limited := rep.Floods[0], rep.Floods[1]
	if health.Outcomes["200"] == 0 || health.Outcomes["429"] == 0 ||
		health.Attempts != health.Outcomes["200"]+health.Outcomes["429"] {
		t.Errorf("flood of /health: %+v, want 200s, then 429s past the probe burst, nothing else", health)
	}
	if limited.Outcomes["429"] == 0 {
		t.Errorf("flood of %s: %+v, want 429s past the client's burst", targets[1], limited)
	}
	for _, target := range targets {
		if !strings.Contains(out.String(), "beside a flood of "+target) {
			t.Errorf("report lacks the ratio beside a flood of %s", target)
		}
	}
}

// reportOf fails the test when the comparison did not run or any answer was a 5xx, and
// returns its report as text (logged with the progress lines).
func reportOf[R interface {
	WriteText(io.Writer)
	FiveXX() int
}](t *testing.T, rep R, err error, progress *bytes.Buffer) *strings.Builder {
	t.Helper()
	if err != nil {
		t.Fatalf("%v\n%s", err, progress.String())
	}
	var out strings.Builder
	rep.WriteText(&out)
	t.Logf("\n%s\n%s", progress.String(), out.String())
	if n := rep.FiveXX(); n != 0 {
		t.Errorf("%d answers were 5xx", n)
	}
	return &out
}
