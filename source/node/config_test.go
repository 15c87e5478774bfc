package node

import (
	"net/http"
	"testing"
)

// The default client keeps a connection open for each request slot.
func TestDefaultClientKeepsConnections(t *testing.T) {
	cfg := Config{URL: "http://localhost:14265", Concurrency: 24}
	if err := cfg.defaults(); err != nil {
		t.Fatal(err)
	}
	if tr, ok := cfg.Client.Transport.(*http.Transport); !ok || tr.MaxIdleConnsPerHost != 24 {
		t.Fatalf("transport %#v: want 24 idle connections per host", cfg.Client.Transport)
	}
	if cfg := (Config{URL: "http://localhost:14265"}); cfg.defaults() != nil || cfg.Concurrency != 32 {
		t.Fatalf("default concurrency %d, want 32", cfg.Concurrency)
	}
}
