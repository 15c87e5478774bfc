// Package wsconn carries MQTT over WebSocket to a broker that serves net.Conns: a
// WebSocket connection as the byte stream MQTT runs on, and a net.Listener that hands
// the broker the connections an HTTP handler upgraded.
package wsconn

import (
	"errors"
	"io"
	"net"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Conn is a WebSocket connection as the byte stream MQTT runs on: each binary message
// is read through in turn, each write is one binary message.
type Conn struct {
	c  *websocket.Conn
	mu sync.Mutex // one writer at a time
	r  io.Reader  // the message being read
}

// New is c as a byte stream.
func New(c *websocket.Conn) *Conn { return &Conn{c: c} }

// ErrTextMessage: MQTT over WebSocket sends binary messages only (MQTT 3.1.1 §6).
var ErrTextMessage = errors.New("wsconn: MQTT over WebSocket takes binary messages only")

func (ws *Conn) Read(p []byte) (int, error) {
	for {
		if ws.r == nil {
			op, r, err := ws.c.NextReader()
			if err != nil {
				return 0, err
			}
			if op != websocket.BinaryMessage {
				return 0, ErrTextMessage
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

func (ws *Conn) Write(p []byte) (int, error) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if err := ws.c.WriteMessage(websocket.BinaryMessage, p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Close closes the connection; it is safe to call more than once.
func (ws *Conn) Close() error                      { return ws.c.Close() }
func (ws *Conn) LocalAddr() net.Addr               { return ws.c.LocalAddr() }
func (ws *Conn) RemoteAddr() net.Addr              { return ws.c.RemoteAddr() }
func (ws *Conn) SetReadDeadline(t time.Time) error { return ws.c.SetReadDeadline(t) }
func (ws *Conn) SetDeadline(t time.Time) error {
	return errors.Join(ws.c.SetReadDeadline(t), ws.SetWriteDeadline(t))
}

// SetWriteDeadline holds the writer's lock: the WebSocket library's write deadline is
// state its writer reads, and the broker moves deadlines while another goroutine writes.
func (ws *Conn) SetWriteDeadline(t time.Time) error {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return ws.c.SetWriteDeadline(t)
}
