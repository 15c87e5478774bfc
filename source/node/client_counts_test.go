package node

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// busyThenAnswer is a node that answers its first busy requests 503, then {}; closed
// when the test ends.
func busyThenAnswer(t *testing.T, busy int32) *httptest.Server {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if n.Add(1) <= busy {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("{}"))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// The node's request and error series count every attempt and every failed one: two 503s
// and an answer are 3 requests and 2 errors. A request its caller canceled is no error.
func TestClientCountsRequestsAndErrors(t *testing.T) {
	srv := busyThenAnswer(t, 2)
	m := newMetrics()
	c := newClient(Config{URL: srv.URL, Client: srv.Client(), Attempts: 3, Concurrency: 4}, m.of("node"))
	if _, err := c.get(context.Background(), "/info", mimeJSON); err != nil {
		t.Fatal(err)
	}
	requests, errors := testutil.ToFloat64(m.requests.WithLabelValues("node")), testutil.ToFloat64(m.errors.WithLabelValues("node"))
	if requests != 3 || errors != 2 {
		t.Fatalf("requests %v, errors %v; want 3 and 2", requests, errors)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.get(ctx, "/info", mimeJSON); err == nil {
		t.Fatal("a canceled request answered")
	}
	if errors := testutil.ToFloat64(m.errors.WithLabelValues("node")); errors != 2 {
		t.Fatalf("errors %v after a canceled request, want still 2", errors)
	}
}

// The round trip of an answer the node gave is learnt; a 5xx teaches nothing.
func TestClientLearnsAnsweredRoundTrips(t *testing.T) {
	srv := busyThenAnswer(t, 1)
	c := newClient(Config{URL: srv.URL, Client: srv.Client(), Attempts: 3, Concurrency: 4}, newMetrics().of("node"))
	var learnt atomic.Int32
	c.answered = func(d time.Duration) {
		if d > 0 {
			learnt.Add(1)
		}
	}
	if _, err := c.get(context.Background(), "/info", mimeJSON); err != nil {
		t.Fatal(err)
	}
	if got := learnt.Load(); got != 1 {
		t.Fatalf("%d round trips learnt, want 1 (the answer, not the 503)", got)
	}
}

// An answer of exactly maxAnswer bytes is read whole.
func TestClientReadsAnAnswerAtTheCap(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Write(make([]byte, maxAnswer))
	}))
	defer srv.Close()
	c := newClient(Config{URL: srv.URL, Client: srv.Client(), Attempts: 1, Concurrency: 4}, newMetrics().of("node"))
	body, err := c.get(context.Background(), "/blocks/x", mimeBinary)
	if err != nil || len(body) != maxAnswer {
		t.Fatalf("an answer of %d bytes: %d read, %v", maxAnswer, len(body), err)
	}
}
