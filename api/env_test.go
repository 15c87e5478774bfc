package api

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testsupport/httpcall"
	"github.com/stardust-indexer/stardust-indexer/testsupport/ingesttest"
)

// testChunk is the partition size of test keyspaces: small, so a 40-milestone chain
// spans five ms_range_id partitions (plus the pending one) and lists page across them.
const testChunk = 10

// quiet keeps the pipeline's progress lines out of test and benchmark output.
var quiet = ingesttest.Quiet

// env is a keyspace holding a sim chain up to milestone n, plus the messages of
// milestone n+1 written as not yet referenced, served by an httptest server.
type env struct {
	st      *store.Store
	cfg     cql.Config // the keyspace's, for checks around the store
	srv     *httptest.Server
	api     *Server
	truth   *sim.Truth                  // milestones 1..n
	pending []chain.UnreferencedMessage // seen before milestone n+1, which is never indexed
}

func newEnv(t testing.TB, opts sim.Options, n uint32) *env {
	t.Helper()
	return newEnvWith(t, opts, n, false)
}

// newEnvWith is newEnv, with the analytics rows written along with each milestone when
// withAnalytics (the daily jobs are left to the caller).
func newEnvWith(t testing.TB, opts sim.Options, n uint32, withAnalytics bool) *env {
	t.Helper()
	st, cfg := storetest.New(t, testChunk)
	opts.Tip = n + 1
	src := sim.New(opts)
	ctx, cancel := context.WithTimeout(context.Background(), max(5*time.Minute, time.Duration(n)*40*time.Millisecond))
	defer cancel()
	start := time.Now()
	p := ingest.New(src, st, ingest.Config{StopAt: n}, nil, quiet)
	if withAnalytics {
		p.AddRows(analytics.Rows)
	}
	if err := p.Run(ctx); err != nil {
		t.Fatalf("ingest: %v", err)
	}
	pending := writeUnreferenced(ctx, t, src, st, n)
	truth, err := src.Truth(n)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("ingested %d milestones (%d messages) and %d unreferenced messages in %s",
		n, len(truth.Messages), len(pending), time.Since(start).Round(time.Millisecond))
	e := &env{st: st, cfg: cfg, truth: truth, pending: pending}
	e.api = New(st, Config{RequestTimeout: 10 * time.Second, Ops: true})
	e.srv = httptest.NewServer(e.api.Handler())
	t.Cleanup(e.srv.Close)
	t.Cleanup(func() { _ = e.api.Close() })
	return e
}

// ingestMore indexes milestones [from, to] of the sim chain of opts into e's keyspace,
// after those newEnv wrote.
func ingestMore(t testing.TB, e *env, opts sim.Options, from, to uint32) {
	t.Helper()
	opts.Tip = to + 1
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := ingest.New(sim.New(opts), e.st, ingest.Config{Start: from, StopAt: to}, nil, quiet).Run(ctx); err != nil {
		t.Fatal(err)
	}
}

// writeUnreferenced runs the pipeline in follow mode at tip n, which writes the
// messages the source has seen for milestone n+1, and stops it once they are written:
// the second Unreferenced call only comes after the first batch was applied.
func writeUnreferenced(ctx context.Context, t testing.TB, src *sim.Sim, st *store.Store, n uint32) []chain.UnreferencedMessage {
	t.Helper()
	pending, err := src.Unreferenced(ctx, n)
	if err != nil {
		t.Fatal(err)
	}
	fctx, stop := context.WithCancel(ctx)
	defer stop()
	held := &heldTip{Sim: src, tip: n, asked: make(chan struct{}, 8)}
	done := make(chan error, 1)
	go func() {
		done <- ingest.New(held, st, ingest.Config{Follow: true, Unreferenced: true, PollInterval: 5 * time.Millisecond},
			nil, quiet).Run(fctx)
	}()
	for range 2 {
		select {
		case <-held.asked:
		case err := <-done:
			t.Fatalf("follow stopped early: %v", err)
		}
	}
	stop()
	<-done
	return pending
}

// heldTip is the sim with its tip held at one milestone.
type heldTip struct {
	*sim.Sim
	tip   uint32
	asked chan struct{}
}

func (h *heldTip) Latest(context.Context) (uint32, error) { return h.tip, nil }

func (h *heldTip) Unreferenced(ctx context.Context, after uint32) ([]chain.UnreferencedMessage, error) {
	h.asked <- struct{}{}
	return h.Sim.Unreferenced(ctx, after)
}

// get fetches path and decodes a JSON answer into out (when non-nil); it returns the status.
func (e *env) get(t testing.TB, path string, out any) int {
	t.Helper()
	status, body := e.fetch(t, path)
	if out != nil && status == http.StatusOK {
		if err := json.Unmarshal(body, out); err != nil {
			t.Fatalf("GET %s: %v\n%s", path, err, body)
		}
	}
	return status
}

// fetch answers path's status and body.
func (e *env) fetch(t testing.TB, path string) (int, []byte) {
	t.Helper()
	resp, body := send(t, http.MethodGet, e.srv.URL+path, "", "")
	return resp.StatusCode, body
}

// send makes one request, with header set to value unless header is "", and returns
// the answer (its body already read and closed) and its body.
func send(t testing.TB, method, url, header, value string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if header != "" {
		req.Header.Set(header, value)
	}
	return httpcall.Do(t, nil, req)
}

// mustGet is get that fails the test unless the answer is 200.
func (e *env) mustGet(t testing.TB, path string, out any) {
	t.Helper()
	if code := e.get(t, path, out); code != http.StatusOK {
		t.Fatalf("GET %s: status %d, want 200", path, code)
	}
}
