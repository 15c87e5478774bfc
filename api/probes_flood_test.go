package api

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// floodServer serves e's keyspace through a session of few in-flight slots, limited
// per client: the setting in which unlimited probe reads crowd out limited routes. The
// request timeout leaves room for a loaded test machine's pauses.
func floodServer(t *testing.T, e *env) *httptest.Server {
	t.Helper()
	cfg := e.cfg
	cfg.MaxInFlight = 1
	sess, err := cql.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sess.Close)
	s := New(store.New(sess, testChunk), Config{RequestTimeout: 1500 * time.Millisecond, Ops: true,
		HealthMaxAge: time.Hour, Limits: Limits{Rate: 1000, Burst: 1000, ClientConcurrency: 8, MaxInFlight: 64}})
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return srv
}

// TestHealthFloodSparesLimitedRoutes floods /health (unlimited, as probes are) beside
// a few clients of a limited route: the flood's database reads must not make the
// limited route time out.
func TestHealthFloodSparesLimitedRoutes(t *testing.T) {
	e := newEnv(t, sim.Options{Seed: 3, MessagesPerMilestone: 4, AddressPool: 10, TagPool: 2}, 12)
	srv := floodServer(t, e)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	var floodAnswers atomic.Int64
	for range floodClients {
		wg.Add(1)
		go func() { defer wg.Done(); floodAnswers.Add(hammer(ctx, srv.URL+"/health")) }()
	}
	time.Sleep(200 * time.Millisecond) // the flood is under way
	var normal, unavailable atomic.Int64
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				code := status(ctx, srv.URL+"/api/core/v2/info")
				if code == 0 {
					return
				}
				normal.Add(1)
				if code == http.StatusServiceUnavailable {
					unavailable.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("flood: %d answers to /health; limited route: %d requests, %d answered 503",
		floodAnswers.Load(), normal.Load(), unavailable.Load())
	if normal.Load() == 0 || unavailable.Load() > 0 {
		t.Fatalf("limited route: %d of %d requests answered 503 during a /health flood, want none",
			unavailable.Load(), normal.Load())
	}
}

// floodClients is the number of /health clients of the flood, each sending its next
// request floodPause after the answer came (a pause that spares the test machine's
// CPU once /health answers at once).
const (
	floodClients = 256
	floodPause   = 100 * time.Millisecond
)

// client keeps a connection per flooding client (the default keeps two in all).
var client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * floodClients}}

// hammer requests url until ctx ends and counts the answers.
func hammer(ctx context.Context, url string) int64 {
	var n int64
	for status(ctx, url) != 0 {
		n++
		select {
		case <-time.After(floodPause):
		case <-ctx.Done():
		}
	}
	return n
}

// status is url's answer status, 0 when no answer came (ctx ended).
func status(ctx context.Context, url string) int {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode
}
