package nodetest

import (
	"errors"
	"io"
	"net"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// wsConn is a WebSocket connection as the byte stream MQTT runs on: each binary
// message is read through in turn, each write is one binary message.
type wsConn struct {
	c  *websocket.Conn
	mu sync.Mutex // one writer at a time
	r  io.Reader  // the message being read
}

var errTextMessage = errors.New("nodetest: MQTT over WebSocket takes binary messages only")

func (ws *wsConn) Read(p []byte) (int, error) {
	for {
		if ws.r == nil {
			op, r, err := ws.c.NextReader()
			if err != nil {
				return 0, err
			}
			if op != websocket.BinaryMessage {
				return 0, errTextMessage
			}
			ws.r = r
		}
		n, err := ws.r.Read(p)
		if errors.Is(err, io.EOF) {
			ws.r, err = nil, nil
			if n == 0 {
				continue
			}
		}
		return n, err
	}
}

func (ws *wsConn) Write(p []byte) (int, error) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if err := ws.c.WriteMessage(websocket.BinaryMessage, p); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (ws *wsConn) Close() error                      { return ws.c.Close() }
func (ws *wsConn) LocalAddr() net.Addr               { return ws.c.LocalAddr() }
func (ws *wsConn) RemoteAddr() net.Addr              { return ws.c.RemoteAddr() }
func (ws *wsConn) SetReadDeadline(t time.Time) error { return ws.c.SetReadDeadline(t) }
func (ws *wsConn) SetDeadline(t time.Time) error {
	return errors.Join(ws.c.SetReadDeadline(t), ws.SetWriteDeadline(t))
}

// SetWriteDeadline holds the writer's lock: the WebSocket library's write deadline is
// state its writer reads, and the broker moves deadlines while another goroutine writes.
func (ws *wsConn) SetWriteDeadline(t time.Time) error {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return ws.c.SetWriteDeadline(t)
}

// connQueue is a net.Listener whose connections are the WebSocket upgrades of the
// node's /api/mqtt/v1, as Hornet proxies them to its MQTT broker.
type connQueue struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
	addr  net.Addr
}

func newConnQueue(addr net.Addr) *connQueue {
	return &connQueue{conns: make(chan net.Conn), done: make(chan struct{}), addr: addr}
}

var errQueueClosed = errors.New("nodetest: event broker stopped")

func (q *connQueue) Accept() (net.Conn, error) {
	select {
	case c := <-q.conns:
		return c, nil
	case <-q.done:
		return nil, errQueueClosed
	}
}

// hand gives c to the broker, or fails when it stopped.
func (q *connQueue) hand(c net.Conn) error {
	select {
	case q.conns <- c:
		return nil
	case <-q.done:
		return errQueueClosed
	}
}

func (q *connQueue) Close() error {
	q.once.Do(func() { close(q.done) })
	return nil
}

func (q *connQueue) Addr() net.Addr { return q.addr }
