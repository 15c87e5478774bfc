package loadtest

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
	"github.com/stardust-indexer/stardust-indexer/testsupport/ingesttest"
)

// testChunk is small so that the chain spans several ms_range_id partitions and list
// routes walk across them, as in api's tests.
const testChunk = 10

// serveChain writes a sim chain of n milestones into a fresh keyspace and serves the
// API over it on a loopback listener with the hardened server cmd/api uses; with -short
// it skips the test.
func serveChain(t testing.TB, n uint32, limits api.Limits) string {
	t.Helper()
	return serveAPI(t, chainStore(t, n), limits)
}

// chainStore writes a sim chain of n milestones into a fresh keyspace.
func chainStore(t testing.TB, n uint32) *store.Store {
	t.Helper()
	sess, _ := testcontainers.NewKeyspaceOrSkip(t)
	st := store.New(sess, testChunk)
	src := sim.New(sim.Options{Seed: 5, Tip: n, AddressPool: 60, TagPool: 10})
	start := time.Now()
	ingesttest.Sim(t, st, src, n)
	t.Logf("ingested %d milestones in %s", n, time.Since(start).Round(time.Millisecond))
	return st
}

// serveAPI serves the API over st with limits as cmd/api does (HTTPServer) on a
// loopback listener, until the test ends; it returns the base URL.
func serveAPI(t testing.TB, st *store.Store, limits api.Limits) string {
	t.Helper()
	const requestTimeout = 5 * time.Second
	// The sim chain is dated 2022: /health says healthy only with a max age past that.
	srv := api.New(st, api.Config{RequestTimeout: requestTimeout, Limits: limits, HealthMaxAge: 100 * 365 * 24 * time.Hour})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := srv.HTTPServer(ln.Addr().String())
	hs.ErrorLog = nil
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(sctx)
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("serve: %v", err)
		}
	})
	return "http://" + ln.Addr().String()
}

// defaultLimits are cmd/api's default limits.
var defaultLimits = api.DefaultLimits()

// TestLoadWithAttackers runs a short load, against an API with cmd/api's default
// limits, with every kind of attacker beside it: no 5xx anywhere, every normal request
// (each client from its own address, within the per-client rate) answered as expected,
// every attacker turned away with a 4xx or a closed connection (or still waiting, when
// its trickle outlasts the run), never a 5xx, and the flooding client held to its burst
// and rate (checkFlood).
func TestLoadWithAttackers(t *testing.T) {
	base := serveChain(t, 30, defaultLimits)
	var progress bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rep, err := Run(ctx, Config{BaseURL: base, Workers: 4, Duration: 3 * time.Second, Seed: 1, Progress: &progress,
		ClientRate: 40, DistinctClients: true,
		Attack: Attack{SlowHeaders: 4, SlowBodies: 2, SlowReaders: 1, Oversized: 2, Trickle: 100 * time.Millisecond,
			Flood: 8}})
	if err != nil {
		t.Fatalf("%v\n%s", err, progress.String())
	}
	var out strings.Builder
	rep.WriteText(&out)
	t.Logf("\n%s\n%s", progress.String(), out.String())

	ids := rep.IDs
	if len(ids.Messages) == 0 || len(ids.Transactions) == 0 || len(ids.Outputs) == 0 || len(ids.Tags) == 0 ||
		len(ids.Addresses) == 0 {
		t.Fatalf("discovery found too little: %s", ids)
	}
	if n := rep.FiveXX(); n != 0 {
		t.Errorf("%d answers were 5xx", n)
	}
	for _, ph := range []Phase{rep.Clean, rep.Attacked} {
		if ph.Total.Requests == 0 {
			t.Errorf("%s: no request answered", ph.Name)
		}
		for _, rs := range ph.Routes {
			if rs.Errors != 0 || rs.Unexpected != 0 {
				t.Errorf("%s, %s: %d transport errors, %d unexpected answers", ph.Name, rs.Route, rs.Errors, rs.Unexpected)
			}
		}
	}
	kinds := map[string]bool{}
	for _, a := range rep.Attacks {
		kinds[a.Kind] = true
		if a.Attempts == 0 {
			t.Errorf("%s: no attempt", a.Kind)
		}
		for outcome := range a.Outcomes {
			if !acceptable(a.Kind, outcome) {
				t.Errorf("%s: outcome %q", a.Kind, outcome)
			}
		}
	}
	for _, kind := range OversizedKinds() {
		if !kinds[kind] {
			t.Errorf("oversized request %q never sent", kind)
		}
	}
	if len(rep.Attacks) != len(OversizedKinds())+4 {
		t.Errorf("%d kinds of attack ran, want %d", len(rep.Attacks), len(OversizedKinds())+4)
	}
	checkFlood(t, rep, 8, 3*time.Second)
}

// checkFlood: the flooder (sending as fast as answers come back) is held to its
// client's burst and rate: its requests wait their token in its queue, and those whose
// token is past the queue's wait are refused with Retry-After. It gets no more answers
// than burst + rate × (phase + 1 s), every 429 has Retry-After.
func checkFlood(t *testing.T, rep *Report, conns int, phase time.Duration) {
	t.Helper()
	for _, a := range rep.Attacks {
		if a.Kind != FloodKind(conns) {
			continue
		}
		if n := a.Outcomes[OutcomeNoRetryAfter]; n > 0 {
			t.Errorf("flood: %d 429s without Retry-After", n)
		}
		served := 0
		for outcome, n := range a.Outcomes {
			if !strings.HasPrefix(outcome, "429") {
				served += n
			}
		}
		if most := api.DefaultBurst + int(api.DefaultRate*(phase+time.Second).Seconds()); served > most {
			t.Errorf("flood: %d of %d requests served in a %s phase, want at most %d (burst and rate)",
				served, a.Attempts, phase, most)
		}
		return
	}
	t.Error("no flood ran")
}

// acceptable: what an attacker may get. A 4xx, or the connection closed or reset by
// the server, or still open when the run ended; a body sent with
// a GET is not read, so that GET is answered (200) and its connection closed; slow
// readers get their 200s at their own pace.
func acceptable(kind, outcome string) bool {
	first, _, _ := strings.Cut(outcome, ", then ")
	switch {
	case strings.HasPrefix(first, "4"):
		return true
	case first == OutcomeClosed || first == OutcomeReset:
		return true
	case first == OutcomeOpen:
		return true // cut off by the end of the run
	case first == "200":
		return strings.HasPrefix(kind, "slow reader") || strings.HasPrefix(kind, "GET body") ||
			strings.HasPrefix(kind, "flood")
	}
	return false
}
