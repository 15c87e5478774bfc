package node

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"golang.org/x/sync/errgroup"
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
	if cfg := (Config{URL: "http://localhost:14265"}); cfg.defaults() != nil || cfg.Concurrency != DefaultConcurrency {
		t.Fatalf("default concurrency %d, want %d", cfg.Concurrency, DefaultConcurrency)
	}
}

// Over TLS the default transport speaks HTTP/2 to a node that offers it, and reuses
// one connection for requests made one after the other and at once.
func TestDefaultClientSpeaksHTTP2OverTLS(t *testing.T) {
	var conns atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = fmt.Fprint(w, r.Proto)
	}))
	srv.EnableHTTP2 = true
	srv.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateNew {
			conns.Add(1)
		}
	}
	srv.StartTLS()
	defer srv.Close()
	tr := keepAlive(8)
	tr.TLSClientConfig = srv.Client().Transport.(*http.Transport).TLSClientConfig
	client := &http.Client{Transport: tr}
	get := func() error {
		resp, err := client.Get(srv.URL)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.ProtoMajor != 2 {
			return fmt.Errorf("answered over %s, want HTTP/2", resp.Proto)
		}
		_, err = io.Copy(io.Discard, resp.Body)
		return err
	}
	if err := get(); err != nil {
		t.Fatal(err)
	}
	var g errgroup.Group
	for range 16 {
		g.Go(get)
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	if n := conns.Load(); n != 1 {
		t.Fatalf("%d connections for 17 requests, want 1", n)
	}
}
