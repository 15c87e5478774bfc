package node

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
)

func TestEventURLs(t *testing.T) {
	nodes := []string{"http://a:14265", "https://b/base"}
	for _, c := range []struct {
		setting string
		want    []string
	}{
		{"", nil},
		{"off", nil},
		{"auto", []string{"ws://a:14265/api/mqtt/v1", "wss://b/base/api/mqtt/v1"}},
		{"mqtt://a:1883, ws://b:1888/", []string{"mqtt://a:1883", "ws://b:1888/"}},
	} {
		got, err := eventURLs(c.setting, nodes)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("eventURLs(%q) = %q, %v; want %q", c.setting, got, err, c.want)
		}
	}
	for _, bad := range []string{"on", "http://a:1883", "mqtt://", "auto,mqtt://a:1883"} {
		if _, err := eventURLs(bad, nodes); !errors.Is(err, ErrEventsURL) {
			t.Errorf("eventURLs(%q): %v; want ErrEventsURL", bad, err)
		}
	}
}

// The node's JWT goes to its own /api/mqtt/v1 only, never to a broker named by URL.
func TestEventsTokenStaysWithTheNode(t *testing.T) {
	for setting, want := range map[string]string{"auto": "jwt", "mqtt://other:1883": ""} {
		brokers, err := brokersOf(Config{URLs: []string{"http://n:14265"}, Token: "jwt", Events: setting})
		if err != nil || len(brokers) != 1 || brokers[0].token != want {
			t.Errorf("%s: brokers %+v, %v; want token %q", setting, brokers, err, want)
		}
		if trusted := brokers[0].trusted; trusted != (setting == "auto") {
			t.Errorf("%s: trusted %v without EventsTrust", setting, trusted)
		}
	}
}

// Malformed events are dropped; a block carrying a milestone is never pending; a block
// once referenced is not taken as pending again.
func TestEventHub(t *testing.T) {
	set, err := realdata.Load()
	if err != nil {
		t.Fatal(err)
	}
	h := newEventHub()
	h.knowNetwork(chain.Shimmer())
	now := time.Now()
	for _, bad := range []struct{ topic, payload string }{
		{topicConfirmed, "{"}, {topicConfirmed, `{"index":0}`}, {topicBlocks, "\x03\x00"},
		{topicReferenced, `{"blockId":"0x12"}`}, {topicReferenced, `{}`}, {"milestones", "x"},
	} {
		if err := h.handle(bad.topic, []byte(bad.payload), now, true); !errors.Is(err, errEvent) {
			t.Errorf("%s %q: %v; want errEvent", bad.topic, bad.payload, err)
		}
	}
	cone := set.Milestones[17340].Cone
	for _, b := range cone {
		if err := h.handle(topicBlocks, b.Raw, now, true); err != nil {
			t.Fatalf("block %x: %v", b.ID, err)
		}
	}
	if got, want := len(h.pending.list()), countRegular(cone); got != want || want == 0 {
		t.Fatalf("pending %d blocks; want the %d without a milestone", got, want)
	}
	h.pending.referencedNow(cone[0].ID)
	_ = h.handle(topicBlocks, cone[0].Raw, now, true)
	for _, um := range h.pending.list() {
		if um.ID == cone[0].ID {
			t.Fatalf("block %x pending again after it was referenced", cone[0].ID)
		}
	}
}

func countRegular(cone []realdata.Block) int {
	n := 0
	for _, b := range cone {
		if m, err := chain.DecodeMessage(b.Raw); err == nil && m.MilestoneOf() == nil {
			n++
		}
	}
	return n
}

// The pending blocks stay within their bounds: the oldest beyond the count or the age go.
func TestPendingBlocksBounds(t *testing.T) {
	p := newPendingBlocks()
	start := time.Now()
	for i := range pendingMaxBlocks + 10 {
		var id chain.MessageID
		id[0], id[1], id[2] = byte(i), byte(i>>8), byte(i>>16)
		p.add(chain.UnreferencedMessage{ID: id, SeenAt: start})
	}
	if n := len(p.list()); n != pendingMaxBlocks {
		t.Fatalf("%d pending; want the bound %d", n, pendingMaxBlocks)
	}
	p.add(chain.UnreferencedMessage{ID: chain.MessageID{0xff, 0xff, 0xff}, SeenAt: start.Add(pendingMaxAge + time.Second)})
	if n := len(p.list()); n != 1 {
		t.Fatalf("%d pending after the age bound; want only the newest", n)
	}
}

// Over a real broker, by WebSocket at the node's /api/mqtt/v1 and by plain MQTT: a
// confirmed milestone wakes the follower, attached blocks become pending until a
// milestone the source reads references them, garbage is dropped and counted, and a
// broker restart is outlived.
func TestEventsFromTheNode(t *testing.T) {
	n, set := fakeNode(t)
	if err := n.SetConfirmed(17339); err != nil {
		t.Fatal(err)
	}
	if err := n.StartEvents(); err != nil {
		t.Fatal(err)
	}
	for _, setting := range []string{EventsAuto, n.EventsURL()} {
		t.Run(setting, func(t *testing.T) {
			s := newSource(t, n, func(c *Config) { c.Events, c.EventsTrust = setting, true })
			ctx := ctxT(t)
			s.Listen(ctx)
			host := s.brokers[0].host
			awaitConnected(t, s, host, 1)
			if _, err := s.Network(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Latest(ctx); err != nil {
				t.Fatal(err)
			}
			checkPendingUntilReferenced(t, n, s, set.Milestones[17340].Cone)
			if err := n.Publish(nodetest.TopicBlocks, []byte("\x02garbage")); err != nil {
				t.Fatal(err)
			}
			awaitCount(t, func() float64 { return testutil.ToFloat64(s.metrics.eventsDropped.WithLabelValues(host, "malformed")) }, 1)

			n.StopEvents()
			awaitConnected(t, s, host, 0)
			if err := n.StartEvents(); err != nil {
				t.Fatal(err)
			}
			awaitConnected(t, s, host, 1)
			drain(s.NewMilestones())
			if err := n.Publish(nodetest.TopicConfirmed, []byte(`{"index":17340,"timestamp":1,"milestoneId":"0x00"}`)); err != nil {
				t.Fatal(err)
			}
			awaitWake(t, s)
		})
	}
}

// checkPendingUntilReferenced attaches cone's blocks, sees them pending with the
// estimated milestone after the tip, then reads their milestone and sees none pending.
func checkPendingUntilReferenced(t *testing.T, n *nodetest.Server, s *Source, cone []realdata.Block) {
	t.Helper()
	drain(s.NewMilestones())
	if err := n.AttachBlocks(17340); err != nil {
		t.Fatal(err)
	}
	awaitWake(t, s)
	want := countRegular(cone)
	awaitCount(t, func() float64 { return float64(len(s.events.pending.list())) }, float64(want))
	for _, um := range s.events.pending.list() {
		if um.EstMilestoneIndex != 17340 || um.Message == nil || chain.MessageIDOf(um.Raw) != um.ID {
			t.Fatalf("pending %s: est %d; want 17340 and the decoded block", um.ID, um.EstMilestoneIndex)
		}
	}
	if err := n.SetConfirmed(17340); err != nil {
		t.Fatal(err)
	}
	awaitWake(t, s)
	if tip, err := s.Latest(ctxT(t)); err != nil || tip != 17340 {
		t.Fatalf("Latest = %d, %v after the event; want 17340", tip, err)
	}
	if _, err := s.Milestone(ctxT(t), 17340); err != nil {
		t.Fatal(err)
	}
	if left := s.events.pending.list(); len(left) != 0 {
		t.Fatalf("%d blocks still pending after their milestone was read", len(left))
	}
	if err := n.SetConfirmed(17339); err != nil { // for the next run
		t.Fatal(err)
	}
	s.events.pending = newPendingBlocks()
}

func awaitConnected(t *testing.T, s *Source, host string, want float64) {
	t.Helper()
	awaitCount(t, func() float64 { return testutil.ToFloat64(s.metrics.eventsUp.WithLabelValues(host)) }, want)
}

func awaitCount(t *testing.T, got func() float64, want float64) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if got() == want {
			return
		}
	}
	t.Fatalf("got %v within 20s; want %v", got(), want)
}

func awaitWake(t *testing.T, s *Source) {
	t.Helper()
	select {
	case <-s.NewMilestones():
	case <-time.After(10 * time.Second):
		t.Fatal("no wake-up within 10s of the event")
	}
}

func drain(c <-chan struct{}) {
	select {
	case <-c:
	default:
	}
}

// The JWT is warned about when it would cross the network in clear text.
func TestPlainTokenHosts(t *testing.T) {
	urls := []string{"http://localhost:14265", "http://127.0.0.1:1", "https://node.example", "http://node.example:14265", "http://[::1]:1"}
	if got := plainTokenHosts(Config{URLs: urls, Token: "jwt"}); !slices.Equal(got, []string{"node.example:14265"}) {
		t.Errorf("plainTokenHosts = %q; want only the plain remote node", got)
	}
	if got := plainTokenHosts(Config{URLs: urls}); got != nil {
		t.Errorf("without a token: %q", got)
	}
}
