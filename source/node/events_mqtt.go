package node

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/stardust-indexer/stardust-indexer/internal/wait"
)

// broker is one event API the source listens to.
type broker struct {
	url     string
	host    string
	token   string // sent only to a node's own /api/mqtt/v1 (EventsAuto)
	trusted bool   // its blocks may become pending rows (a node's own, or Config.EventsTrust)
}

// Listen listens to the event APIs of Config.Events until ctx ends, each in the
// background: it connects with backoff (1 s doubling to a minute) and reconnects when a
// connection drops, so a node without an event API, or a broker that restarts, never
// stops the source; polling finds new milestones meanwhile. It returns at once.
func (s *Source) Listen(ctx context.Context) {
	if len(s.brokers) == 0 {
		return
	}
	queue := make(chan event, eventQueue)
	for range eventWorkers {
		go s.work(ctx, queue)
	}
	for _, b := range s.brokers {
		go s.listen(ctx, b, queue)
	}
}

// Events are handled by eventWorkers goroutines from a queue of eventQueue: a broker
// sending faster than they decode loses events (counted), never grows the goroutines.
const (
	eventWorkers = 4
	eventQueue   = 1024
)

// event is one message received from a broker.
type event struct {
	b        broker
	topic    string
	payload  []byte
	received time.Time
}

// errEventsBusy drops an event that found the queue full.
var errEventsBusy = errors.New("node events: the workers are busy")

// work handles queued events until ctx ends.
func (s *Source) work(ctx context.Context, queue <-chan event) {
	for {
		select {
		case <-ctx.Done():
			return
		case ev := <-queue:
			if err := s.events.handle(ev.topic, ev.payload, ev.received, ev.b.trusted); err != nil {
				s.dropped(ev.b.host, err)
			}
		}
	}
}

// dropped counts an event the source could not use, by reason.
func (s *Source) dropped(host string, err error) {
	s.metrics.eventsDropped.WithLabelValues(host, eventReason(err)).Inc()
	slog.Debug("node event dropped", "node", host, "error", err)
}

func (s *Source) listen(ctx context.Context, b broker, queue chan<- event) {
	c := mqtt.NewClient(s.clientOptions(b, queue))
	if !s.connect(ctx, c, b) {
		return
	}
	<-ctx.Done()
	c.Disconnect(250)
	s.metrics.eventsUp.WithLabelValues(b.host).Set(0)
}

// clientOptions subscribe (again on every reconnection) at QoS 0: an event is a hint,
// one lost costs a poll interval at most. The connection refuses packets over
// maxEventPacket; messages go to the workers' queue from the client's own goroutine
// (order matters, so the client starts none per message).
func (s *Source) clientOptions(b broker, queue chan<- event) *mqtt.ClientOptions {
	up := s.metrics.eventsUp.WithLabelValues(b.host)
	tooLarge := s.metrics.eventsDropped.WithLabelValues(b.host, "packet_too_large")
	opts := mqtt.NewClientOptions().AddBroker(b.url).SetClientID(clientID()).SetCleanSession(true).
		SetAutoReconnect(true).SetMaxReconnectInterval(time.Minute).SetConnectTimeout(10 * time.Second).
		SetKeepAlive(30 * time.Second).SetOrderMatters(true).SetCustomOpenConnectionFn(openCapped(tooLarge.Inc))
	if b.token != "" {
		opts.SetHTTPHeaders(http.Header{"Authorization": {"Bearer " + b.token}})
	}
	opts.SetOnConnectHandler(func(c mqtt.Client) {
		topics := map[string]byte{topicConfirmed: 0, topicBlocks: 0, topicReferenced: 0}
		t := c.SubscribeMultiple(topics, s.onEvent(b, queue))
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

// onEvent counts an event and queues it for the workers, never waiting: a full queue
// drops it.
func (s *Source) onEvent(b broker, queue chan<- event) mqtt.MessageHandler {
	return func(_ mqtt.Client, msg mqtt.Message) {
		s.metrics.events.WithLabelValues(b.host, msg.Topic()).Inc()
		select {
		case queue <- event{b: b, topic: msg.Topic(), payload: msg.Payload(), received: time.Now()}:
		default:
			s.dropped(b.host, errEventsBusy)
		}
	}
}

// clientID is a fresh MQTT client ID: two indexers must not take each other's session.
func clientID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "stardust-indexer-" + hex.EncodeToString(b[:])
}
