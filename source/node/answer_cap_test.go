package node

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/source"
)

// endlessStop is where the endless node gives up, so that a client reading past the cap
// fails the test instead of filling the memory.
const endlessStop = 8 * maxAnswer

// capNode is a node answering every request with 200 and the bytes body writes; it
// counts the requests it got.
type capNode struct {
	requests atomic.Int64
	srv      *httptest.Server
}

func newCapNode(t *testing.T, body func(w http.ResponseWriter)) *capNode {
	n := &capNode{}
	n.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		n.requests.Add(1)
		w.Header().Set("Content-Type", mimeJSON)
		body(w)
	}))
	t.Cleanup(n.srv.Close)
	return n
}

// countingBody counts the answer's bytes the client read.
type countingBody struct {
	io.ReadCloser
	read *atomic.Int64
}

func (b countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.read.Add(int64(n))
	return n, err
}

// countingTransport hands the client answers whose bytes read it counts.
type countingTransport struct{ read *atomic.Int64 }

func (c countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil {
		resp.Body = countingBody{resp.Body, c.read}
	}
	return resp, err
}

// capClient is the client of a source on n with three attempts, and the count of the
// answer bytes it reads.
func capClient(t *testing.T, n *capNode) (*client, *atomic.Int64) {
	t.Helper()
	read := &atomic.Int64{}
	s, err := New(Config{URL: n.srv.URL, Attempts: 3, Timeout: 30 * time.Second,
		Client: &http.Client{Timeout: 30 * time.Second, Transport: countingTransport{read}}})
	if err != nil {
		t.Fatal(err)
	}
	return s.members[0].c, read
}

// wantCapRefusal: the answer was refused as the node's fault (a source.Refusal naming the
// cap, not errUnavailable), asked for once, and read no further than one byte past the
// cap (the byte that tells it is over).
func wantCapRefusal(t *testing.T, n *capNode, read *atomic.Int64, err error) {
	t.Helper()
	if !errors.As(err, new(*source.Refusal)) || errors.Is(err, errUnavailable) ||
		!strings.Contains(err.Error(), "answer larger than") {
		t.Errorf("err = %v, want a refusal of an answer larger than the cap", err)
	}
	if got := n.requests.Load(); got != 1 {
		t.Errorf("the node got %d requests, want 1 (a refusal is not retried)", got)
	}
	if got := read.Load(); got > maxAnswer+1 {
		t.Errorf("read %d bytes of the answer, want at most the cap + 1 (%d)", got, maxAnswer+1)
	}
}

// An answer one byte over the cap is refused as the node's fault and not asked again.
func TestAnswerOneByteOverTheCapRefused(t *testing.T) {
	body := bytes.Repeat([]byte(" "), maxAnswer+1)
	n := newCapNode(t, func(w http.ResponseWriter) { _, _ = w.Write(body) })
	c, read := capClient(t, n)
	_, err := c.get(ctxT(t), "/info", mimeJSON)
	wantCapRefusal(t, n, read, err)
	if got := read.Load(); got != maxAnswer+1 {
		t.Errorf("read %d bytes, want the cap + 1 (%d): the byte past the cap tells it is over", got, maxAnswer+1)
	}
}

// An answer of exactly the cap is taken whole.
func TestAnswerOfTheCapTaken(t *testing.T) {
	body := bytes.Repeat([]byte(" "), maxAnswer)
	n := newCapNode(t, func(w http.ResponseWriter) { _, _ = w.Write(body) })
	c, _ := capClient(t, n)
	got, err := c.get(ctxT(t), "/info", mimeJSON)
	if err != nil || len(got) != maxAnswer {
		t.Fatalf("got %d bytes, %v; want the %d bytes", len(got), err, maxAnswer)
	}
}

// An answer without end (streamed until the client goes away) is refused once the cap is
// passed, read no further, and not asked again.
func TestEndlessAnswerRefusedAtTheCap(t *testing.T) {
	chunk := bytes.Repeat([]byte(" "), 64<<10)
	var written atomic.Int64
	n := newCapNode(t, func(w http.ResponseWriter) {
		for written.Load() < endlessStop {
			k, err := w.Write(chunk)
			written.Add(int64(k))
			if err != nil {
				return // the client hung up
			}
		}
	})
	c, read := capClient(t, n)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := c.get(ctx, "/info", mimeJSON)
	wantCapRefusal(t, n, read, err)
	t.Logf("the node wrote %d bytes (socket buffers take some past what the client read), the client read %d",
		written.Load(), read.Load())
}
