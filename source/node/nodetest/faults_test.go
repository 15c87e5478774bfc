package nodetest

import (
	"net/http"
	"sync"
	"testing"
	"time"
)

func TestJWT(t *testing.T) {
	s, _ := newServer(t)
	s.SetToken("secret")
	info := api("info")
	wantError(t, "no token", get(t, s, info), http.StatusUnauthorized)
	wantError(t, "wrong token", get(t, s, info, "Authorization", "Bearer nope"), http.StatusUnauthorized)
	wantError(t, "not bearer", get(t, s, info, "Authorization", "secret"), http.StatusUnauthorized)
	if a := get(t, s, info, "Authorization", "Bearer secret"); a.status != http.StatusOK {
		t.Errorf("right token: %d %s", a.status, a.body)
	}
	wantError(t, "unknown route without token", get(t, s, api("nothing")), http.StatusUnauthorized)
	for _, p := range []string{"/health", "/api/routes"} {
		if a := get(t, s, p); a.status != http.StatusOK {
			t.Errorf("%s without token: %d", p, a.status)
		}
	}
	s.SetToken("")
	if a := get(t, s, info); a.status != http.StatusOK {
		t.Errorf("token off: %d", a.status)
	}
}

func TestFailNext(t *testing.T) {
	s, set := newServer(t)
	s.FailNext(2, "/api/core/v2/blocks/")
	id := set.Milestones[17339].Cone[0].ID
	block := api("blocks", h0x(id[:]))
	if a := get(t, s, api("info")); a.status != http.StatusOK {
		t.Errorf("other prefix: %d", a.status)
	}
	wantError(t, "fault 1", getBinary(t, s, block), http.StatusInternalServerError)
	wantError(t, "fault 2", get(t, s, block+"/metadata"), http.StatusInternalServerError)
	if a := getBinary(t, s, block); a.status != http.StatusOK {
		t.Errorf("after faults: %d", a.status)
	}
	s.FailNext(1, "")
	wantError(t, "any path", get(t, s, "/health"), http.StatusInternalServerError)
	if a := get(t, s, "/health"); a.status != http.StatusOK {
		t.Errorf("after fault: %d", a.status)
	}
	// A request rejected for its token does not use up a fault.
	s.SetToken("t")
	s.FailNext(1, "")
	wantError(t, "unauthorized", get(t, s, api("info")), http.StatusUnauthorized)
	wantError(t, "fault after 401", get(t, s, api("info"), "Authorization", "Bearer t"), http.StatusInternalServerError)
}

func TestDieAndRevive(t *testing.T) {
	s, _ := newServer(t)
	// No keep-alive: each request gets its own connection, so the transport cannot retry a
	// request on a fresh connection and the counts stay exact.
	c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	s.DieAfter(1)
	if a, err := tryGet(c, s, http.MethodGet, api("info")); err != nil || a.status != http.StatusOK {
		t.Fatalf("before dying: %v %d", err, a.status)
	}
	for range 3 {
		if a, err := tryGet(c, s, http.MethodGet, api("info")); err == nil {
			t.Fatalf("dead node answered %d", a.status)
		}
	}
	s.Revive()
	if a, err := tryGet(c, s, http.MethodGet, api("info")); err != nil || a.status != http.StatusOK {
		t.Fatalf("revived: %v %d", err, a.status)
	}
	if n := s.Count(RouteInfo); n != 5 {
		t.Errorf("info count %d, want 5", n)
	}
}

// TestDieKeepAlive: a connection kept alive from before the death is cut too.
func TestDieKeepAlive(t *testing.T) {
	s, _ := newServer(t)
	c := &http.Client{Timeout: 5 * time.Second}
	if _, err := tryGet(c, s, http.MethodGet, "/health"); err != nil {
		t.Fatal(err)
	}
	s.DieAfter(0)
	if _, err := tryGet(c, s, http.MethodGet, "/health"); err == nil {
		t.Error("kept-alive connection answered after death")
	}
}

func TestCounts(t *testing.T) {
	s, set := newServer(t)
	m := set.Milestones[17339]
	var wg sync.WaitGroup
	fetch := func(path string) {
		if a, err := tryGet(client, s, http.MethodGet, path); err != nil || a.status != http.StatusOK {
			t.Errorf("%s: %v %d", path, err, a.status)
		}
	}
	for range 10 { // concurrent requests: the counters must not lose any
		wg.Go(func() { fetch(api("milestones", "by-index", "17339")) })
		wg.Go(func() { fetch(api("milestones", h0x(m.MilestoneID[:]), "utxo-changes")) })
	}
	wg.Wait()
	get(t, s, api("outputs", h0x(m.Created[0].OutputID[:]), "metadata"))
	get(t, s, api("bogus"))
	want := map[string]int{RouteMilestoneByIndex: 10, RouteUTXOChangesByID: 10, RouteOutputMetadata: 1, RouteUnknown: 1}
	got := s.Counts()
	for route, n := range want {
		if got[route] != n {
			t.Errorf("%s: %d, want %d", route, got[route], n)
		}
	}
	if len(got) != len(want) {
		t.Errorf("counts %v", got)
	}
	s.ResetCounts()
	if s.Count(RouteMilestoneByIndex) != 0 {
		t.Error("reset did not clear")
	}
}

func TestLatency(t *testing.T) {
	s, _ := newServer(t)
	const d = 300 * time.Millisecond
	s.SetLatency(d)
	start := time.Now()
	get(t, s, "/health")
	if took := time.Since(start); took < d {
		t.Errorf("answered in %v", took)
	}
	s.SetLatency(0)
	start = time.Now()
	get(t, s, "/health")
	if took := time.Since(start); took >= d {
		t.Errorf("latency off, answered in %v", took)
	}
}
