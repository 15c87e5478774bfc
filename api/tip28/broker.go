// Package tip28 serves the node event API of TIP-28 (MQTT over WebSocket at
// /api/mqtt/v1), read-only, for the topics a wallet subscribes to: the milestone
// topics, an output's and an address's ledger changes, a transaction's inclusion and a
// block's metadata. What it publishes comes from what the indexer wrote: as the ledger
// index passes a milestone, that milestone's changes, read from the store.
package tip28

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"sync"
	"time"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/listeners"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/internal/wsconn"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Path is where the broker is served, where Hornet serves its event API.
const Path = "/api/mqtt/v1"

// Store is what the broker reads of the store; *store.Store in the server's wiring.
type Store interface {
	LedgerIndex(ctx context.Context) (store.LedgerIndex, error)
	Milestone(ctx context.Context, index uint32) (store.MilestoneRecord, error)
	MilestoneUpdates(ctx context.Context, index uint32) ([]store.MilestoneUpdate, error)
	MilestoneMessages(ctx context.Context, index uint32) ([]string, error)
	IncludedMessage(ctx context.Context, txID string) (string, error)
}

var _ Store = (*store.Store)(nil)

// Config caps the broker's clients.
type Config struct {
	// MaxClients and MaxClientsPerIP cap the open connections, in all and per client
	// address (defaults DefaultMaxClients, DefaultMaxClientsPerIP); past them an upgrade
	// is answered 429.
	MaxClients, MaxClientsPerIP int
	// MaxSubscriptions caps one connection's subscriptions (default
	// DefaultMaxSubscriptions, inx-mqtt's); past it a SUBACK refuses the filter.
	MaxSubscriptions int
	// PasswordOK, when set, is the read token's check: a connection whose upgrade did not
	// carry the token must give it as the CONNECT packet's password.
	PasswordOK func(password []byte) bool
	// Registry receives the broker's metrics; nil: none.
	Registry prometheus.Registerer
}

const (
	DefaultMaxClients       = 1000
	DefaultMaxClientsPerIP  = 8
	DefaultMaxSubscriptions = 1000
)

// Broker is the MQTT broker behind Path. It starts with its first connection, and
// follows the ledger index while any client is connected.
type Broker struct {
	reads      *rest.Reads
	st         Store
	tips       *rest.TipWatch
	cfg        Config
	conns      *rest.ClientCaps
	metrics    *metrics
	pushes     chan struct{} // the subscription pushes in flight (a semaphore)
	network    networkHRP
	mu         sync.Mutex
	publishing sync.Mutex   // one publication at a time (publish)
	srv        *mqtt.Server // nil until the first connection
	queue      *wsconn.Queue
	closed     bool
	stopped    context.Context    // ended by Close: the follower stops
	stop       context.CancelFunc // ends stopped
	done       chan struct{}      // closed when the follower stopped
}

// New is the broker over r and st, following the ledger index through tips; it starts
// nothing until its first connection.
func New(r *rest.Reads, st Store, tips *rest.TipWatch, cfg Config) *Broker {
	cfg.MaxClients = positiveOr(cfg.MaxClients, DefaultMaxClients)
	cfg.MaxClientsPerIP = positiveOr(cfg.MaxClientsPerIP, DefaultMaxClientsPerIP)
	cfg.MaxSubscriptions = positiveOr(cfg.MaxSubscriptions, DefaultMaxSubscriptions)
	b := &Broker{reads: r, st: st, tips: tips, cfg: cfg, conns: rest.NewClientCaps(cfg.MaxClients, cfg.MaxClientsPerIP, "event connections",
		"close one first"),
		done: make(chan struct{}), pushes: make(chan struct{}, maxPushes)}
	b.stopped, b.stop = context.WithCancel(context.Background())
	b.metrics = newMetrics(cfg.Registry, b.conns)
	return b
}

// positiveOr is v, or d when v is not positive (unset).
func positiveOr(v, d int) int {
	if v <= 0 {
		return d
	}
	return v
}

// maxPushes bounds the reads that push a topic's current value to new subscribers.
const maxPushes = 8

// errClosed: the broker was closed (the server is shutting down).
var errClosed = &rest.APIError{Status: http.StatusServiceUnavailable, Title: "shutting down",
	Detail: "the event broker is closed", RetryAfter: rest.RetryAfterSeconds}

// server is the broker's MQTT server and the queue that feeds it, made and served at
// the first call. The ledger index the follower starts from is read before the server
// is made, outside the lock: a slow database holds up no other connection, nor Close.
func (b *Broker) server() (*mqtt.Server, *wsconn.Queue, error) {
	if srv, queue, err := b.made(); srv != nil || err != nil {
		return srv, queue, err
	}
	tip := b.tip()
	b.mu.Lock()
	defer b.mu.Unlock()
	if srv, queue, err := b.madeLocked(); srv != nil || err != nil {
		return srv, queue, err // made, or closed, while the tip was read
	}
	srv := mqtt.New(&mqtt.Options{InlineClient: true, Capabilities: capabilities(b.cfg),
		Logger: slog.New(quietHandler{slog.Default().Handler()}).With("component", "tip28")})
	queue := wsconn.NewQueue(pathAddr{})
	err := errors.Join(srv.AddHook(&hook{b: b}, nil), srv.AddListener(listeners.NewNet(listenerID, queue)))
	if err == nil {
		err = srv.Serve()
	}
	if err != nil {
		return nil, nil, fmt.Errorf("tip28: starting the MQTT broker: %w", err)
	}
	b.srv, b.queue = srv, queue
	go b.follow(srv, tip)
	return srv, queue, nil
}

// made is the broker's server and queue once made (nil before), or errClosed.
func (b *Broker) made() (*mqtt.Server, *wsconn.Queue, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.madeLocked()
}

// madeLocked is made, with b.mu held.
func (b *Broker) madeLocked() (*mqtt.Server, *wsconn.Queue, error) {
	if b.closed {
		return nil, nil, errClosed
	}
	return b.srv, b.queue, nil
}

// running is the broker's MQTT server, nil before the first connection or once closed.
func (b *Broker) running() *mqtt.Server {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil
	}
	return b.srv
}

const listenerID = "ws"

// pathAddr is the address the broker's listener says it serves: Path, over WebSocket.
type pathAddr struct{}

func (pathAddr) Network() string { return "ws" }
func (pathAddr) String() string  { return Path }

// capabilities are the broker's MQTT capabilities: delivery at QoS 0 (what TIP-28's
// publisher sends; no message is stored for a client), no retained messages, sessions
// that end with their connection, bounded packets and queues.
func capabilities(cfg Config) *mqtt.Capabilities {
	c := mqtt.NewDefaultServerCapabilities()
	c.MaximumClients = int64(cfg.MaxClients)
	c.MaximumQos = 0
	c.RetainAvailable = 0
	c.SharedSubAvailable = 0
	c.MaximumSessionExpiryInterval = 0
	c.MaximumPacketSize = maxInboundPacket
	c.MaximumClientWritesPending = maxPendingWrites
	return c
}

const (
	// maxInboundPacket bounds a client's packets: a SUBSCRIBE of MaxSubscriptions
	// unlock topics (about 120 bytes each) fits.
	maxInboundPacket = 256 << 10
	// maxPendingWrites bounds the messages queued for one client; past it a slow
	// client misses messages, as with Hornet.
	maxPendingWrites = 1024
)

// connectWindow is how long an upgraded connection may take to send its CONNECT.
const connectWindow = 10 * time.Second

// Accept upgrades a request to Path and hands the connection to the broker: client is
// who asks (for the per-client cap), authorized whether its request carried the read
// token (if one is configured; else the CONNECT's password must).
func (b *Broker) Accept(w http.ResponseWriter, r *http.Request, client netip.Addr, authorized bool) {
	release, refused := b.conns.Admit(client)
	if refused != nil {
		b.metrics.refused.WithLabelValues(refused.Cap).Inc()
		rest.WriteError(w, r, refused.APIError, nil)
		return
	}
	_, queue, err := b.server()
	if err != nil {
		release()
		rest.WriteError(w, r, rest.Classify(r.Context(), err, false), err)
		return
	}
	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		release()
		return // the upgrader answered
	}
	c := &conn{Conn: wsconn.New(ws), release: release, authorized: authorized || b.cfg.PasswordOK == nil}
	if err := c.SetReadDeadline(time.Now().Add(connectWindow)); err != nil || queue.Hand(c) != nil {
		_ = c.Close()
	}
}

// Close stops the broker and disconnects its clients.
func (b *Broker) Close() error {
	b.mu.Lock()
	srv, was := b.srv, b.closed
	b.closed = true
	b.mu.Unlock()
	if srv == nil || was {
		return nil
	}
	b.stop()
	<-b.done
	return srv.Close()
}

// Subscribers is the number of subscriptions a topic's messages reach (wildcards too):
// none before the broker starts.
func (b *Broker) Subscribers(topicName string) int {
	srv := b.running()
	if srv == nil {
		return 0
	}
	return len(srv.Topics.Subscribers(topicName).Subscriptions)
}

// Connections is the number of open connections.
func (b *Broker) Connections() int { return b.conns.Open() }
