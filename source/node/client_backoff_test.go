package node

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// An unavailable answer is retried after a backoff that starts at 200ms and doubles.
func TestRetriesBackOffAndDouble(t *testing.T) {
	var (
		mu    sync.Mutex
		times []time.Time
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		times = append(times, time.Now())
		n := len(times)
		mu.Unlock()
		if n < 3 {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("{}"))
	}))
	defer srv.Close()
	c := newClient(Config{URL: srv.URL, Client: srv.Client(), Attempts: 3, Concurrency: 4}, newMetrics().of("node"))
	if _, err := c.get(context.Background(), "/info", mimeJSON); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(times) != 3 {
		t.Fatalf("%d requests, want 3", len(times))
	}
	if gap := times[1].Sub(times[0]); gap < 200*time.Millisecond {
		t.Errorf("first retry after %v, want at least 200ms", gap)
	}
	if gap := times[2].Sub(times[1]); gap < 400*time.Millisecond {
		t.Errorf("second retry after %v, want at least 400ms (the backoff doubled)", gap)
	}
}
