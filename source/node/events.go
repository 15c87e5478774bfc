package node

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Event API settings (Config.Events).
const (
	// EventsAuto listens to every node's event API where Hornet serves it: WebSocket at
	// /api/mqtt/v1 on the REST port (wss for an https node).
	EventsAuto = "auto"
	// EventsOff listens to no event API: new milestones are found by polling only.
	EventsOff = "off"
)

// ErrEventsURL refuses an event API setting that is neither auto, off nor a list of
// ws://, wss://, mqtt:// or mqtts:// URLs.
var ErrEventsURL = errors.New("node events: want auto, off, or ws(s):// and mqtt(s):// URLs")

// eventsPath is where Hornet proxies the event API (inx-mqtt's WebSocket listener).
const eventsPath = "/api/mqtt/v1"

// eventURLs are the brokers the setting names for the nodes (none when off).
func eventURLs(setting string, nodes []string) ([]string, error) {
	switch strings.TrimSpace(setting) {
	case "", EventsOff:
		return nil, nil
	case EventsAuto:
		return autoEventURLs(nodes), nil
	}
	var urls []string
	for _, raw := range strings.Split(setting, ",") {
		raw = strings.TrimSpace(raw)
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" || !brokerScheme(u.Scheme) {
			return nil, fmt.Errorf("%w: %q", ErrEventsURL, raw)
		}
		urls = append(urls, raw)
	}
	return urls, nil
}

func brokerScheme(s string) bool {
	return s == "ws" || s == "wss" || s == "mqtt" || s == "mqtts"
}

// autoEventURLs are the nodes' /api/mqtt/v1 WebSocket URLs.
func autoEventURLs(nodes []string) []string {
	urls := make([]string, len(nodes))
	for i, raw := range nodes {
		u, _ := url.Parse(raw) // checked by Config.defaults
		u.Scheme = map[string]string{"http": "ws", "https": "wss"}[u.Scheme]
		u.Path = strings.TrimRight(u.Path, "/") + eventsPath
		urls[i] = u.String()
	}
	return urls
}

// brokersOf are the event APIs cfg names; the node's token goes only to the nodes' own
// /api/mqtt/v1, never to a broker named by URL. A broker named by URL is another host
// whose blocks no node vouched for: it only wakes the follower unless cfg.EventsTrust.
func brokersOf(cfg Config) ([]broker, error) {
	urls, err := eventURLs(cfg.Events, cfg.URLs)
	if err != nil {
		return nil, err
	}
	auto := strings.TrimSpace(cfg.Events) == EventsAuto
	brokers := make([]broker, len(urls))
	for i, raw := range urls {
		brokers[i] = broker{url: raw, host: hostOf(raw), trusted: auto || cfg.EventsTrust}
		if auto {
			brokers[i].token = cfg.Token
		}
	}
	return brokers, nil
}
