package node

import (
	"context"
	"errors"
	"io"
	"net"
	"runtime"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

// A broker announcing a 256 MiB packet loses its connection before the client reads
// (or allocates) the packet; the refusal is counted.
func TestEventsRefuseOversizedPacket(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	closed := make(chan error, 1)
	go lyingBroker(ln, closed)

	s, err := New(Config{URL: "http://127.0.0.1:1", Events: "mqtt://" + ln.Addr().String()})
	if err != nil {
		t.Fatal(err)
	}
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.Listen(ctx)
	select {
	case err := <-closed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the client kept the connection of a broker announcing 256 MiB")
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	grew := after.TotalAlloc - before.TotalAlloc
	t.Logf("allocated %.1f MiB from the connection to its refusal", float64(grew)/(1<<20))
	if grew > 32<<20 {
		t.Fatalf("allocated %d MiB after a 256 MiB announcement; want under 32", grew>>20)
	}
	host := s.brokers[0].host
	awaitCount(t, func() float64 {
		return testutil.ToFloat64(s.metrics.eventsDropped.WithLabelValues(host, "packet_too_large"))
	}, 1)
}

// lyingBroker accepts one client, answers its CONNECT, announces a PUBLISH of 256 MiB
// (remaining length 0xff 0xff 0xff 0x7f) and reports when the client closes.
func lyingBroker(ln net.Listener, closed chan<- error) {
	conn, err := ln.Accept()
	if err != nil {
		closed <- err
		return
	}
	defer conn.Close()
	buf := make([]byte, 512)
	if _, err := conn.Read(buf); err != nil { // CONNECT
		closed <- err
		return
	}
	if _, err := conn.Write([]byte{0x20, 0x02, 0x00, 0x00, 0x30, 0xff, 0xff, 0xff, 0x7f}); err != nil {
		closed <- err
		return
	}
	_ = conn.SetReadDeadline(time.Now().Add(time.Minute))
	for {
		if _, err := conn.Read(buf); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) || isReset(err) {
				err = nil
			}
			closed <- err
			return
		}
	}
}

func isReset(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && !op.Timeout()
}

// The fixed-header parser passes packets up to the cap, whatever way the stream is cut.
func TestPacketCapFollowsHeaders(t *testing.T) {
	small := []byte{0x30, 0x03, 'a', 'b', 'c', 0xd0, 0x00, 0x30, 0x80, 0x80, 0x04} // 3 bytes, PINGRESP, 64 KiB
	for cut := 1; cut <= len(small); cut++ {
		c := &packetCap{max: maxEventPacket}
		if err := c.follow(small[:cut]); err != nil {
			t.Fatalf("cut %d: %v", cut, err)
		}
		if err := c.follow(small[cut:]); err != nil {
			t.Fatalf("cut %d, rest: %v", cut, err)
		}
	}
	c := &packetCap{max: maxEventPacket}
	if err := c.follow([]byte{0x30, 0x81, 0x80, 0x04}); !errors.Is(err, ErrEventPacketTooLarge) {
		t.Fatalf("64 KiB + 1: %v; want ErrEventPacketTooLarge", err)
	}
}

// The pending blocks are capped by their bytes as well as their count.
func TestPendingBlocksByteBound(t *testing.T) {
	p := newPendingBlocks()
	block := make([]byte, chain.MaxMessageSize) // shared: the test holds one copy
	now := time.Now()
	for i := range (40 << 20) / len(block) {
		var id chain.MessageID
		id[0], id[1] = byte(i), byte(i>>8)
		p.add(chain.UnreferencedMessage{ID: id, Raw: block, SeenAt: now})
	}
	if n, bytes := p.size(); bytes > pendingMaxBytes || n != pendingMaxBytes/len(block) {
		t.Fatalf("%d blocks, %d bytes pending; want at most %d bytes", n, bytes, pendingMaxBytes)
	}
	if n := len(p.list()); n != pendingMaxBytes/len(block) {
		t.Fatalf("list holds %d", n)
	}
	p.referencedNow(p.list()[0].ID)
	if _, bytes := p.size(); bytes != pendingMaxBytes-len(block) {
		t.Fatalf("%d bytes after one was referenced", bytes)
	}
}

// An event block is refused, with its reason, unless it is of the network's protocol
// version, its transaction of the network's ID, and its PoW at the network's minimum.
func TestEventBlocksCheckedAgainstTheNetwork(t *testing.T) {
	set, err := realdata.Load()
	if err != nil {
		t.Fatal(err)
	}
	tx := txBlock(t, set)
	other := chain.Shimmer()
	other.Name = "testnet"
	lowPoW := append([]byte(nil), tx...)
	lowPoW[len(lowPoW)-1] ^= 0x5a
	oldVersion := append([]byte(nil), tx...)
	oldVersion[0] = 1
	for _, c := range []struct {
		name   string
		net    *chain.Network
		raw    []byte
		reason string
	}{
		{"before the network", nil, tx, "network_unknown"},
		{"another network", &other, tx, "network_id"},
		{"low PoW", ptr(chain.Shimmer()), lowPoW, "pow"},
		{"protocol version 1", ptr(chain.Shimmer()), oldVersion, "protocol_version"},
	} {
		h := newEventHub()
		if c.net != nil {
			h.knowNetwork(*c.net)
		}
		err := h.handle(topicBlocks, c.raw, time.Now(), true)
		if !errors.Is(err, errEvent) || eventReason(err) != c.reason {
			t.Errorf("%s: %v (reason %q); want reason %q", c.name, err, eventReason(err), c.reason)
		}
		if n, _ := h.pending.size(); n != 0 {
			t.Errorf("%s: %d pending", c.name, n)
		}
	}
	h := newEventHub()
	h.knowNetwork(chain.Shimmer())
	if err := h.handle(topicBlocks, tx, time.Now(), true); err != nil {
		t.Fatalf("the real block: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }

// txBlock is a real block carrying a transaction.
func txBlock(t *testing.T, set *realdata.Set) []byte {
	t.Helper()
	for _, ms := range set.Milestones {
		for _, b := range ms.Cone {
			if m, err := chain.DecodeMessage(b.Raw); err == nil && m.TransactionOf() != nil {
				return b.Raw
			}
		}
	}
	t.Fatal("no transaction in the real data")
	return nil
}

// A broker named by URL only wakes the follower unless trusted: its blocks never become
// pending, however valid.
func TestURLBrokerOnlyWakes(t *testing.T) {
	n, set := fakeNode(t)
	if err := n.SetConfirmed(17339); err != nil {
		t.Fatal(err)
	}
	if err := n.StartEvents(); err != nil {
		t.Fatal(err)
	}
	s := newSource(t, n, func(c *Config) { c.Events = n.EventsURL() })
	ctx := ctxT(t)
	s.Listen(ctx)
	awaitConnected(t, s, s.brokers[0].host, 1)
	if _, err := s.Network(ctx); err != nil {
		t.Fatal(err)
	}
	drain(s.NewMilestones())
	if err := n.AttachBlocks(17340); err != nil {
		t.Fatal(err)
	}
	awaitWake(t, s)
	awaitCount(t, func() float64 {
		return testutil.ToFloat64(s.metrics.events.WithLabelValues(s.brokers[0].host, topicBlocks))
	},
		float64(len(set.Milestones[17340].Cone)))
	time.Sleep(200 * time.Millisecond) // the workers' last events
	if got, _ := s.Unreferenced(ctx, 17339); len(got) != 0 {
		t.Fatalf("%d pending rows from an untrusted broker", len(got))
	}
}

// A full queue drops an event and counts it; the client's goroutine never waits.
func TestEventsQueueFullDrops(t *testing.T) {
	s, err := New(Config{URL: "http://127.0.0.1:1", Events: "mqtt://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	queue := make(chan event, 1)
	on := s.onEvent(s.brokers[0], queue)
	for range 3 {
		on(nil, fakeMessage{topic: topicBlocks})
	}
	if got := testutil.ToFloat64(s.metrics.eventsDropped.WithLabelValues(s.brokers[0].host, "busy")); got != 2 {
		t.Fatalf("%v dropped as busy; want 2", got)
	}
}

type fakeMessage struct{ topic string }

func (fakeMessage) Duplicate() bool   { return false }
func (fakeMessage) Qos() byte         { return 0 }
func (fakeMessage) Retained() bool    { return false }
func (m fakeMessage) Topic() string   { return m.topic }
func (fakeMessage) MessageID() uint16 { return 0 }
func (fakeMessage) Payload() []byte   { return nil }
func (fakeMessage) Ack()              {}
