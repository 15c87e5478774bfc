package node

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// The node's request and error series count every attempt and every failed one: two 503s
// and an answer are 3 requests and 2 errors. A request its caller canceled is no error.
func TestClientCountsRequestsAndErrors(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if n.Add(1) < 3 {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("{}"))
	}))
	defer srv.Close()
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
