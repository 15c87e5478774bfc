package node

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/stardust-indexer/stardust-indexer/internal/wait"
)

// broker is one event API the source listens to.
type broker struct {
	url   string
	host  string
	token string // sent only to a node's own /api/mqtt/v1 (EventsAuto)
}

// Listen listens to the event APIs of Config.Events until ctx ends, each in the
// background: it connects with backoff (1 s doubling to a minute) and reconnects when a
// connection drops, so a node without an event API, or a broker that restarts, never
// stops the source; polling finds new milestones meanwhile. It returns at once.
func (s *Source) Listen(ctx context.Context) {
	for _, b := range s.brokers {
		go s.listen(ctx, b)
	}
}

func (s *Source) listen(ctx context.Context, b broker) {
	c := mqtt.NewClient(s.clientOptions(b))
	if !s.connect(ctx, c, b) {
		return
	}
	<-ctx.Done()
	c.Disconnect(250)
	s.metrics.eventsUp.WithLabelValues(b.host).Set(0)
}

// clientOptions subscribe (again on every reconnection) at QoS 0: an event is a hint,
// one lost costs a poll interval at most.
func (s *Source) clientOptions(b broker) *mqtt.ClientOptions {
	up := s.metrics.eventsUp.WithLabelValues(b.host)
	opts := mqtt.NewClientOptions().AddBroker(b.url).SetClientID(clientID()).SetCleanSession(true).
		SetAutoReconnect(true).SetMaxReconnectInterval(time.Minute).SetConnectTimeout(10 * time.Second).
		SetKeepAlive(30 * time.Second).SetOrderMatters(false)
	if b.token != "" {
		opts.SetHTTPHeaders(http.Header{"Authorization": {"Bearer " + b.token}})
	}
	opts.SetOnConnectHandler(func(c mqtt.Client) {
		topics := map[string]byte{topicConfirmed: 0, topicBlocks: 0, topicReferenced: 0}
		t := c.SubscribeMultiple(topics, s.onEvent(b.host))
		if t.WaitTimeout(10*time.Second) && t.Error() != nil {
			slog.Warn("node events: subscribing failed", "node", b.host, "error", t.Error())
			return
		}
		up.Set(1)
		slog.Info("node events connected", "node", b.host)
	})
	opts.SetConnectionLostHandler(func(_ mqtt.Client, err error) {
		up.Set(0)
		slog.Warn("node events lost; reconnecting (polling meanwhile)", "node", b.host, "error", err)
	})
	return opts
}

// connect makes the first connection, retrying with backoff until ctx ends (false).
func (s *Source) connect(ctx context.Context, c mqtt.Client, b broker) bool {
	backoff := time.Second
	for attempt := 0; ; attempt++ {
		t := c.Connect()
		t.Wait()
		if t.Error() == nil {
			return true
		}
		log := slog.Debug
		if attempt == 0 {
			log = slog.Warn
		}
		log("node events unavailable; polling meanwhile, retrying", "node", b.host, "error", t.Error(), "retry_in", backoff)
		if wait.Sleep(ctx, backoff) != nil {
			return false
		}
		backoff = min(2*backoff, time.Minute)
	}
}

// onEvent hands an event to the hub and counts it.
func (s *Source) onEvent(host string) mqtt.MessageHandler {
	dropped := s.metrics.eventsDropped.WithLabelValues(host)
	return func(_ mqtt.Client, msg mqtt.Message) {
		s.metrics.events.WithLabelValues(host, msg.Topic()).Inc()
		if err := s.events.handle(msg.Topic(), msg.Payload(), time.Now()); err != nil {
			dropped.Inc()
			slog.Debug("node event dropped", "node", host, "error", err)
		}
	}
}

// clientID is a fresh MQTT client ID: two indexers must not take each other's session.
func clientID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "stardust-indexer-" + hex.EncodeToString(b[:])
}
