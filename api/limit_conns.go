package api

import (
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"
)

// openConn counts a new connection of client id, or says it is over the client's
// connection cap (or its site's, siteShare times that) or that the table has no room.
func (l *limiter) openConn(id netip.Addr) (string, bool) {
	if l.cfg.ClientConnections <= 0 {
		return "", true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	states := l.entries(id, l.now())
	if states == nil {
		return reasonClients, false
	}
	for _, c := range states {
		limit := l.cfg.ClientConnections
		if isSite(c.key) {
			limit *= siteShare
		}
		if c.conns >= limit {
			return reasonConnections, false
		}
	}
	for _, c := range states {
		c.conns++
	}
	return "", true
}

// closeConn uncounts a connection openConn counted.
func (l *limiter) closeConn(id netip.Addr) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, key := range keysOf(id) {
		if e, ok := l.clients[key]; ok {
			e.Value.(*clientState).conns--
		}
	}
}

// connTracker caps each client's open connections (http.Server.ConnState): a connection
// over the cap is answered 429 and closed before a request is read. Connections from
// trusted proxies are not counted (they carry many clients).
type connTracker struct {
	g    *guard
	open sync.Map // net.Conn -> netip.Addr, the connections counted
}

// refusedConn is what a connection over its client's cap gets before it is closed.
var refusedConn = func() string {
	const body = "this client has too many connections open; close some, or wait for them\n"
	return "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 1\r\nConnection: close\r\n" +
		"Content-Type: text/plain; charset=utf-8\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
}()

func (t *connTracker) state(c net.Conn, st http.ConnState) {
	switch st {
	case http.StateNew:
		id := remoteAddr(c.RemoteAddr().String())
		if t.g.limits == nil || isTrusted(id, t.g.trusted) {
			return
		}
		id = clientOf(id)
		if reason, ok := t.g.limits.openConn(id); !ok {
			t.g.limited.WithLabelValues(reason).Inc()
			_ = c.SetWriteDeadline(time.Now().Add(time.Second))
			_, _ = c.Write([]byte(refusedConn))
			_ = c.Close()
			return
		}
		t.open.Store(c, id)
	case http.StateClosed, http.StateHijacked:
		if id, ok := t.open.LoadAndDelete(c); ok {
			t.g.limits.closeConn(id.(netip.Addr))
		}
	}
}
