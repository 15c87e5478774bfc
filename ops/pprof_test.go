package ops

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/testsupport/bintest"
)

// The ops listener serves the Go runtime's profiles: a heap profile in text
// (?debug=1) with the runtime's memory statistics, a goroutine dump and the index.
func TestProfilesOnTheOpsListener(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr := bintest.FreeAddr(t)
	Serve(ctx, addr, NewRegistry(), func(context.Context) error { return nil })
	for path, want := range map[string]string{
		"/debug/pprof/heap?debug=1":      "# runtime.MemStats",
		"/debug/pprof/goroutine?debug=1": "goroutine profile:",
		"/debug/pprof/":                  "Types of profiles available",
	} {
		body := getWhenUp(t, "http://"+addr+path)
		if !strings.Contains(body, want) {
			t.Errorf("GET %s: no %q in %.200s", path, want, body)
		}
	}
}

// getWhenUp GETs url, waiting up to 5 s for the listener to start; the answer must be 200.
func getWhenUp(t *testing.T, url string) string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		resp, err := http.Get(url)
		if err != nil && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %s, %v", url, resp.Status, err)
		}
		return string(body)
	}
}
