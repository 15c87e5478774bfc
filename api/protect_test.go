package api

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/core"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
)

const readToken = "r3ad-t0ken-for-the-read-routes"

// protectedServer serves an empty keyspace with cfg (Ops on).
func protectedServer(t *testing.T, cfg Config) *httptest.Server {
	t.Helper()
	st, _ := storetest.New(t, testChunk)
	cfg.Ops = true
	srv := httptest.NewServer(New(st, cfg).Handler())
	t.Cleanup(srv.Close)
	return srv
}

// clientFrom is an HTTP client whose connections leave from the loopback address
// local (Linux routes all of 127.0.0.0/8 to lo), so the server sees it as its own client.
func clientFrom(local string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
}

func getAs(t *testing.T, c *http.Client, url, token string) (*http.Response, []byte) {
	t.Helper()
	resp, body, err := tryGet(c, url, token)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// tryGet is one GET with an optional bearer token (safe in any goroutine).
func tryGet(c *http.Client, url, token string) (*http.Response, []byte, error) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
	if err != nil {
		return nil, nil, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp, body, err
}

// TestFloodIsLimited: a flood from one client is answered 429 with Retry-After (in the
// route's error form) past its burst, while another client is served and the probes
// stay open; the refusals are counted by reason. The rate is so low that no token comes
// back during the test, so the counts are exact whatever the machine's speed.
func TestFloodIsLimited(t *testing.T) {
	srv := protectedServer(t, Config{Limits: Limits{Rate: 0.001, Burst: 3, ClientConcurrency: 16}})
	flooder, other := clientFrom("127.0.0.2"), clientFrom("127.0.0.3")
	paths := []string{"/sync", core.CorePrefix + "/blocks/0x" + strings.Repeat("00", 32)}
	const flood = 20
	var mu sync.Mutex
	statuses := map[int]int{}
	var wg sync.WaitGroup
	for i := range flood {
		wg.Go(func() {
			path := paths[i%2]
			resp, body, err := tryGet(flooder, srv.URL+path, "")
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				t.Error(err)
				return
			}
			statuses[resp.StatusCode]++
			if resp.StatusCode != http.StatusTooManyRequests {
				return
			}
			if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || s < 1 {
				t.Errorf("429 with Retry-After %q", resp.Header.Get("Retry-After"))
			}
			checkErrorForm(t, path, body)
		})
	}
	wg.Wait()
	if statuses[http.StatusTooManyRequests] != flood-3 {
		t.Errorf("flood of %d from one client, burst 3: statuses %v, want %d 429s", flood, statuses, flood-3)
	}
	if resp, body := getAs(t, other, srv.URL+"/sync", ""); resp.StatusCode != http.StatusOK {
		t.Errorf("another client during the flood: %d %s", resp.StatusCode, body)
	}
	for _, probe := range []string{"/healthz", "/readyz", "/metrics"} {
		if resp, _ := getAs(t, flooder, srv.URL+probe, ""); resp.StatusCode != http.StatusOK {
			t.Errorf("%s for the flooder: %d, want 200 (probes are not limited)", probe, resp.StatusCode)
		}
	}
	_, metrics := getAs(t, other, srv.URL+"/metrics", "")
	if want := `api_limited_total{reason="rate"} ` + strconv.Itoa(flood-3); !strings.Contains(string(metrics), want) {
		t.Errorf("metrics lack %q", want)
	}
}

// checkErrorForm: a TIP-25 route's 429 is {"error": {"code", "message"}}, another's
// {"error", "detail"}.
func checkErrorForm(t *testing.T, path string, body []byte) {
	t.Helper()
	var tip struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	var own struct{ Error, Detail string }
	if strings.HasPrefix(path, core.CorePrefix) {
		if err := json.Unmarshal(body, &tip); err != nil || tip.Error.Code != "429" || tip.Error.Message == "" {
			t.Errorf("%s: 429 body %s is not a TIP-25 error", path, body)
		}
		return
	}
	if err := json.Unmarshal(body, &own); err != nil || own.Error != "too many requests" || own.Detail == "" {
		t.Errorf("%s: 429 body %s", path, body)
	}
}

// TestReadToken: with a read token every route but the probes (and the dashboard's
// files, TestDashboardPublic) needs it (401 with WWW-Authenticate without it or with a
// wrong one, the admin token included); the admin routes take the admin token, not the
// read token.
func TestReadToken(t *testing.T) {
	logs := captureLogs(t)
	srv := protectedServer(t, Config{ReadToken: readToken, AdminToken: testToken})
	c := http.DefaultClient
	for _, path := range []string{"/sync", "/openapi.json", core.CorePrefix + "/info", "/no/such/route"} {
		for _, token := range []string{"", wrongToken, testToken} {
			resp, _ := getAs(t, c, srv.URL+path, token)
			if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("GET %s with token %q: %d (WWW-Authenticate %q), want 401 with a challenge", path, token,
					resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
			}
		}
	}
	if resp, body := getAs(t, c, srv.URL+"/sync", readToken); resp.StatusCode != http.StatusOK {
		t.Errorf("GET /sync with the read token: %d %s", resp.StatusCode, body)
	}
	if resp, _ := getAs(t, c, srv.URL+"/healthz", ""); resp.StatusCode != http.StatusOK {
		t.Errorf("GET /healthz without a token: %d, want 200", resp.StatusCode)
	}
	post := func(token string) int {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/admin/resync?from=5&to=4", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := post(readToken); got != http.StatusUnauthorized {
		t.Errorf("admin route with the read token: %d, want 401", got)
	}
	if got := post(testToken); got != http.StatusBadRequest { // through to the parameters: to < from
		t.Errorf("admin route with the admin token: %d, want 400", got)
	}
	if strings.Contains(logs.String(), "r3ad") {
		t.Errorf("the log holds the read token:\n%s", logs.String())
	}
}

// TestProtectionDocumented: with limits and a read token, /openapi.json names 429 and
// 401 on every route but the probes (and 401 not on the admin routes' read side), and
// 429 without 401 on the public dashboard files.
func TestProtectionDocumented(t *testing.T) {
	s := New(store.New(nil, testChunk), Config{Ops: true, Limits: Limits{Rate: 1}, ReadToken: readToken})
	for i := range s.routes {
		rt := &s.routes[i]
		resp := responses(rt)
		_, has429 := resp["429"]
		_, has401 := resp["401"]
		if probes[rt.Pattern] {
			if has429 || has401 {
				t.Errorf("probe %s documents 429 or 401", rt.Pattern)
			}
			continue
		}
		if !has429 || has401 == rt.Public {
			t.Errorf("%s documents 429: %t, 401: %t; want 429, and 401 unless public (%t)", rt.Pattern,
				has429, has401, rt.Public)
		}
	}
	if plain := New(store.New(nil, testChunk), Config{}); len(plain.routes[0].Errs) != len(s.routes[0].Errs)-2 {
		t.Errorf("an unprotected server documents %d errors on %s, a protected one %d", len(plain.routes[0].Errs),
			s.routes[0].Pattern, len(s.routes[0].Errs))
	}
}

// TestProbesLimitedApart: a client's probes have a bucket of their own: past its probe
// burst a probe is answered 429 with Retry-After, while the same client's reads and
// another client's probes are served.
func TestProbesLimitedApart(t *testing.T) {
	srv := protectedServer(t, Config{Limits: Limits{Rate: 0.001, Burst: 3, ProbeRate: 1}})
	flooder, other := clientFrom("127.0.0.2"), clientFrom("127.0.0.3")
	for i, probe := range []string{"/healthz", "/readyz", "/metrics"} {
		resp, body := getAs(t, flooder, srv.URL+probe, "")
		want := http.StatusOK
		if i >= 2 { // burst: twice the probe rate
			want = http.StatusTooManyRequests
		}
		if resp.StatusCode != want {
			t.Fatalf("probe %d (%s) of one client: %d %s, want %d", i+1, probe, resp.StatusCode, body, want)
		}
		if want == http.StatusTooManyRequests && resp.Header.Get("Retry-After") == "" {
			t.Errorf("%s refused without Retry-After", probe)
		}
	}
	if resp, body := getAs(t, flooder, srv.URL+"/sync", ""); resp.StatusCode != http.StatusOK {
		t.Errorf("the same client's read after its probes were limited: %d %s", resp.StatusCode, body)
	}
	if resp, body := getAs(t, other, srv.URL+"/healthz", ""); resp.StatusCode != http.StatusOK {
		t.Errorf("another client's probe: %d %s", resp.StatusCode, body)
	}
}
