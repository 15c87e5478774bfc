package nodetest

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"

	"github.com/gorilla/websocket"
	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/hooks/auth"
	"github.com/mochi-mqtt/server/v2/listeners"

	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
	"github.com/stardust-indexer/stardust-indexer/internal/wsconn"
)

// Topics the fake node publishes, as Hornet's inx-mqtt v1 does.
const (
	TopicConfirmed  = "milestone-info/confirmed"
	TopicBlocks     = "blocks"
	TopicReferenced = "block-metadata/referenced"
)

// EventsPath is where the node serves its event API over WebSocket, as Hornet proxies
// inx-mqtt's listener.
const EventsPath = "/api/mqtt/v1"

// events is a running MQTT broker (mochi) reached over WebSocket at EventsPath and
// over TCP.
type events struct {
	srv *mqtt.Server
	ws  *wsconn.Queue
	tcp net.Listener
}

// ErrEventsOff answers a publication while the event API is stopped.
var ErrEventsOff = errors.New("nodetest: the event API is not running (StartEvents)")

// StartEvents starts the node's event API (TIP-28 over MQTT 3.1.1): WebSocket at
// ws://<node>/api/mqtt/v1 and plain MQTT at EventsURL. From then on SetConfirmed publishes
// block-metadata/referenced for each block a newly confirmed milestone references,
// then milestone-info/confirmed; AttachBlocks publishes blocks. After StopEvents it
// starts again on the same TCP address (a broker restart).
func (s *Server) StartEvents() error {
	s.evMu.Lock()
	defer s.evMu.Unlock()
	if s.ev != nil {
		return nil
	}
	tcp, err := net.Listen("tcp", cmp.Or(s.evAddr, "127.0.0.1:0"))
	if err != nil {
		return fmt.Errorf("nodetest: event API: %w", err)
	}
	ev := &events{ws: wsconn.NewQueue(tcp.Addr()), tcp: tcp,
		srv: mqtt.New(&mqtt.Options{InlineClient: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})}
	err = errors.Join(ev.srv.AddHook(new(auth.AllowHook), nil), ev.srv.AddListener(listeners.NewNet("tcp", tcp)),
		ev.srv.AddListener(listeners.NewNet("ws", ev.ws)))
	if err == nil {
		err = ev.srv.Serve()
	}
	if err != nil {
		_ = ev.srv.Close()
		return fmt.Errorf("nodetest: event API: %w", err)
	}
	s.ev, s.evAddr = ev, tcp.Addr().String()
	return nil
}

// StopEvents stops the event API, dropping its clients (a broker going down).
func (s *Server) StopEvents() {
	s.evMu.Lock()
	defer s.evMu.Unlock()
	if s.ev != nil {
		_ = s.ev.srv.Close()
		_ = s.ev.ws.Close()
		s.ev = nil
	}
}

// EventsURL is the event API over plain MQTT (mqtt://127.0.0.1:port); "" before StartEvents.
func (s *Server) EventsURL() string {
	s.evMu.Lock()
	defer s.evMu.Unlock()
	if s.evAddr == "" {
		return ""
	}
	return "mqtt://" + s.evAddr
}

// Publish publishes payload on topic at QoS 0, not retained, as inx-mqtt does.
func (s *Server) Publish(topic string, payload []byte) error {
	s.evMu.Lock()
	ev := s.ev
	s.evMu.Unlock()
	if ev == nil {
		return ErrEventsOff
	}
	return ev.srv.Publish(topic, payload, false, 0)
}

var upgrader = websocket.Upgrader{Subprotocols: []string{"mqtt"}, CheckOrigin: func(*http.Request) bool { return true }}

// serveEvents upgrades a request to EventsPath and hands the connection to the broker.
func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request) {
	s.evMu.Lock()
	ev := s.ev
	s.evMu.Unlock()
	if ev == nil {
		writeError(w, http.StatusNotFound, "no route %s", r.URL.Path)
		return
	}
	c, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader answered
	}
	if ev.ws.Hand(wsconn.New(c)) != nil {
		_ = c.Close()
	}
}

// AttachBlocks publishes on blocks the bytes of every block milestone index references,
// as they arrive before a milestone references them.
func (s *Server) AttachBlocks(index uint32) error {
	m := s.ix.milestone(index)
	if m == nil {
		return fmt.Errorf("nodetest: milestone %d is not in the set", index)
	}
	for _, b := range m.Cone {
		if err := s.Publish(TopicBlocks, b.Raw); err != nil {
			return err
		}
	}
	return nil
}

// announce publishes what confirming the milestones after..upTo tells subscribers
// (nothing while the event API is stopped).
func (s *Server) announce(after, upTo uint32) error {
	for i := after + 1; i <= upTo; i++ {
		m := s.ix.milestone(i)
		if m == nil {
			continue
		}
		for _, b := range m.Cone {
			if err := s.publishJSON(TopicReferenced, referencedEvent(b)); err != nil {
				return err
			}
		}
		info := milestoneInfoJSON{Index: i, Timestamp: m.Timestamp, MilestoneID: hex0x(m.MilestoneID[:])}
		if err := s.publishJSON(TopicConfirmed, info); err != nil {
			return err
		}
	}
	return nil
}

func (s *Server) publishJSON(topic string, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	err = s.Publish(topic, body)
	if errors.Is(err, ErrEventsOff) {
		return nil
	}
	return err
}

// milestoneInfoJSON is inx-mqtt's milestone-info payload.
type milestoneInfoJSON struct {
	Index       uint32 `json:"index"`
	Timestamp   uint32 `json:"timestamp"`
	MilestoneID string `json:"milestoneId"`
}

// referencedEventJSON is inx-mqtt's block metadata payload: its parents are named
// parentBlockIds, unlike the REST API's parents.
type referencedEventJSON struct {
	BlockID                    string   `json:"blockId"`
	Parents                    []string `json:"parentBlockIds"`
	IsSolid                    bool     `json:"isSolid"`
	ReferencedByMilestoneIndex uint32   `json:"referencedByMilestoneIndex"`
	MilestoneIndex             uint32   `json:"milestoneIndex,omitempty"`
	LedgerInclusionState       string   `json:"ledgerInclusionState"`
	ConflictReason             uint8    `json:"conflictReason,omitempty"`
	WhiteFlagIndex             uint32   `json:"whiteFlagIndex"`
}

func referencedEvent(b realdata.Block) referencedEventJSON {
	return referencedEventJSON{BlockID: hex0x(b.ID[:]), Parents: hexList(b.Parents), IsSolid: true,
		ReferencedByMilestoneIndex: b.ReferencedBy, MilestoneIndex: b.MilestoneIndex,
		LedgerInclusionState: b.InclusionState, ConflictReason: b.ConflictReason, WhiteFlagIndex: b.WhiteFlagIndex}
}

// Subscribers is how many clients subscribe to topic now (0 while stopped).
func (s *Server) Subscribers(topic string) int {
	s.evMu.Lock()
	ev := s.ev
	s.evMu.Unlock()
	if ev == nil {
		return 0
	}
	return len(ev.srv.Topics.Subscribers(topic).Subscriptions)
}
