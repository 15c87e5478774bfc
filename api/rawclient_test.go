package api

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"testing"
)

// rawClient is an HTTP/1.1 client that writes a request and reads its answer on the
// caller's goroutine over a kept-alive connection. Go's http.Transport hands each
// request to a writer goroutine and each answer to a reader goroutine, two wake-ups
// per exchange that belong to the client, not to the server being measured; this
// client leaves them out, as a client in another process waiting on its socket would.
type rawClient struct {
	host  string
	conns chan *rawConn
}

type rawConn struct {
	c net.Conn
	r *bufio.Reader
}

func newRawClient(tb testing.TB, base string, clients int) *rawClient {
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatal(err)
	}
	rc := &rawClient{host: u.Host, conns: make(chan *rawConn, clients)}
	for range clients {
		c, err := net.Dial("tcp", u.Host)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { c.Close() })
		rc.conns <- &rawConn{c: c, r: bufio.NewReader(c)}
	}
	return rc
}

// get sends GET path and reads the whole answer; anything but 200 is an error.
func (rc *rawClient) get(_ context.Context, path string) error {
	conn := <-rc.conns
	defer func() { rc.conns <- conn }()
	if _, err := fmt.Fprintf(conn.c, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", path, rc.host); err != nil {
		return err
	}
	resp, err := http.ReadResponse(conn.r, nil)
	if err != nil {
		return err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("GET %s: %d", path, resp.StatusCode)
	}
	return err
}
