package wsconn

import (
	"errors"
	"net"
	"sync"
)

// Queue is a net.Listener whose connections are the ones handed to it: the WebSocket
// upgrades an HTTP handler makes, for a broker that accepts from a listener.
type Queue struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
	addr  net.Addr
}

// NewQueue is a queue that says it listens on addr.
func NewQueue(addr net.Addr) *Queue {
	return &Queue{conns: make(chan net.Conn), done: make(chan struct{}), addr: addr}
}

// ErrQueueClosed: the broker behind the queue stopped.
var ErrQueueClosed = errors.New("wsconn: the broker stopped")

// Accept waits for the next connection handed over.
func (q *Queue) Accept() (net.Conn, error) {
	select {
	case c := <-q.conns:
		return c, nil
	case <-q.done:
		return nil, ErrQueueClosed
	}
}

// Hand gives c to the broker, or fails when it stopped.
func (q *Queue) Hand(c net.Conn) error {
	select {
	case q.conns <- c:
		return nil
	case <-q.done:
		return ErrQueueClosed
	}
}

// Close stops the queue: Accept and Hand fail from then on.
func (q *Queue) Close() error {
	q.once.Do(func() { close(q.done) })
	return nil
}

// Addr is the address the queue says it listens on.
func (q *Queue) Addr() net.Addr { return q.addr }
