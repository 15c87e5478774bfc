package ops

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestReadyzBoundedAndGeneric: a readiness check that hangs and fails with a host in
// its error makes /readyz answer 503 within ProbeTimeout, with a body that does not
// name the host, at most one check runs at a time, and the check's context carries the
// deadline (a database ping under it gives up instead of waiting out its retries).
func TestReadyzBoundedAndGeneric(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	var calls atomic.Int32
	var deadline atomic.Int64 // of the check's context, ns from its start; 0: none
	srv := httptest.NewServer(Handler(NewRegistry(), func(ctx context.Context) error {
		calls.Add(1)
		if d, ok := ctx.Deadline(); ok {
			deadline.Store(int64(time.Until(d)))
		}
		<-release
		return errors.New("dial tcp 10.1.2.3:9042: connect: connection refused")
	}))
	defer srv.Close()
	for range 3 {
		start := time.Now()
		resp, err := http.Get(srv.URL + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if took := time.Since(start); resp.StatusCode != http.StatusServiceUnavailable || took > ProbeTimeout+time.Second {
			t.Fatalf("/readyz: %d after %s, want 503 within %s", resp.StatusCode, took, ProbeTimeout)
		}
		if strings.Contains(string(body), "10.1.2.3") || strings.Contains(string(body), "dial") {
			t.Fatalf("/readyz body names the failure's detail: %s", body)
		}
	}
	if calls.Load() != 1 {
		t.Errorf("%d checks ran at once, want 1", calls.Load())
	}
	if d := time.Duration(deadline.Load()); d <= 0 || d > ProbeTimeout {
		t.Errorf("the check's context ends in %s, want a deadline within %s", d, ProbeTimeout)
	}
}
