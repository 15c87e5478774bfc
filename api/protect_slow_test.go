package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// bigAnswer is the size of the answers the slow readers never read.
const bigAnswer = 256 << 10

// serveBig serves s as cmd/api does (HTTPServer) on 127.0.0.1, with one more route,
// /test/big, guarded as every route is and answering bigAnswer bytes built in memory;
// it returns the listener's address.
func serveBig(t *testing.T, s *Server) string {
	t.Helper()
	body := bytes.Repeat([]byte("x"), bigAnswer)
	s.mux.Handle("/test/big", s.guard.wrap(nil, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rest.SendBody(w, http.StatusOK, "application/octet-stream", body)
	})))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := s.HTTPServer(ln.Addr().String())
	hs.ErrorLog = nil
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = hs.Shutdown(ctx)
		_ = hs.Close()
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("serve: %v", err)
		}
	})
	return ln.Addr().String()
}

// slowReaders is the review's attack: from each of addrs loopback addresses, conns
// connections that each ask for a big answer and never read a byte of it (a small
// receive window, so the server's write soon blocks); a connection the server closes is
// opened again, until ctx ends. It counts the connections the server closed.
func slowReaders(ctx context.Context, t *testing.T, server string, addrs, conns int) *atomic.Int64 {
	closed := &atomic.Int64{}
	var wg sync.WaitGroup
	for a := range addrs {
		local := &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(10+a))}
		for range conns {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for ctx.Err() == nil {
					slowReader(ctx, server, local, closed)
				}
			}()
		}
	}
	t.Cleanup(wg.Wait)
	return closed
}

// slowReader holds one connection: it sends a request every 200 ms (pipelined behind
// the first, which the server is still writing) until a write fails.
func slowReader(ctx context.Context, server string, local *net.TCPAddr, closed *atomic.Int64) {
	d := net.Dialer{LocalAddr: local, Control: nil}
	c, err := d.DialContext(ctx, "tcp", server)
	if err != nil {
		time.Sleep(50 * time.Millisecond)
		return
	}
	defer c.Close()
	_ = c.(*net.TCPConn).SetReadBuffer(4 << 10)
	req := []byte("GET /test/big HTTP/1.1\r\nHost: api\r\n\r\n")
	for ctx.Err() == nil {
		if _, err := c.Write(req); err != nil {
			closed.Add(1)
			return
		}
		select {
		case <-ctx.Done():
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// TestSlowReadersLockNoOneOut: 16 addresses × 16 connections that never read their
// 256 KiB answers (as many requests as the server's default in-flight cap) while a
// normal client, from an address of its own, reads answers one after the other: it
// gets every one (no 429, no error), since a slot is freed when its answer starts.
func TestSlowReadersLockNoOneOut(t *testing.T) {
	s := New(nil, Config{Limits: DefaultLimits()})
	server := serveBig(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	closed := slowReaders(ctx, t, server, 16, 16)
	time.Sleep(2 * time.Second) // every slow connection has asked and the server's writes block
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 200)}}).DialContext}}
	defer client.CloseIdleConnections()
	var failures []string
	for i := range 40 {
		resp, err := client.Get("http://" + server + "/test/big")
		if err != nil {
			failures = append(failures, fmt.Sprintf("request %d: %v", i, err))
			continue
		}
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || n != bigAnswer || err != nil {
			failures = append(failures, fmt.Sprintf("request %d: %d, %d bytes, %v", i, resp.StatusCode, n, err))
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	if len(failures) > 0 {
		t.Fatalf("the normal client got %d errors of 40 beside the slow readers:\n%v", len(failures), failures)
	}
	t.Logf("slow readers' connections closed by the server: %d", closed.Load())
}

// TestMinSendRate: a client that asks for big answers (20 pipelined, more than the
// sockets' buffers hold) and stops reading loses its connection within the send window
// (here 8 KiB / 32 KiB/s), not after the server's write timeout (15 s): when it reads
// again, after 3 s, the answers are cut short.
func TestMinSendRate(t *testing.T) {
	s := New(nil, Config{Limits: Limits{MinSendRate: 32 << 10}})
	server := serveBig(t, s)
	c, err := net.Dial("tcp", server)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	const asked = 20
	if _, err := c.Write(bytes.Repeat([]byte("GET /test/big HTTP/1.1\r\nHost: api\r\n\r\n"), asked)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Second)
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	n, _ := io.Copy(io.Discard, c)
	if n >= asked*bigAnswer {
		t.Fatalf("read %d bytes after 3 s without reading: all %d answers, want them cut short by the send window",
			n, asked)
	}
	t.Logf("read %d bytes of %d answers of %d before the server closed the connection", n, asked, bigAnswer)
}
