package api

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/gorilla/websocket"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/api/tip28"
)

// TestMQTTGuards: with a read token, the broker admits a client that gives it as its
// CONNECT password or on its upgrade, and refuses one without it or with a Will; it
// caps a client's connections (429 on the upgrade); a client's publication reaches no
// one; a plain GET of the path is answered 426.
func TestMQTTGuards(t *testing.T) {
	const n = 6
	const token = "mqtt-read-token-0123456789"
	e := newEnv(t, testOptions, n)
	reg := prometheus.NewRegistry()
	s := New(e.st, Config{ReadToken: token, MaxMQTTConnectionsPerClient: 2, Registry: reg})
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(func() { _ = s.Close() })
	ws := "ws" + strings.TrimPrefix(srv.URL, "http") + tip28.Path

	if code := plainGet(t, srv.URL+tip28.Path, token); code != http.StatusUpgradeRequired {
		t.Errorf("GET %s without an upgrade: %d, want 426", tip28.Path, code)
	}
	if _, err := dialMQTT(t, srv.URL, ""); err == nil || !strings.Contains(err.Error(), "not Authorized") {
		t.Errorf("CONNECT without the read token: %v, want refused as not authorized", err)
	}
	if _, err := dialMQTT(t, srv.URL, "wrong"); err == nil {
		t.Error("CONNECT with a wrong password was admitted")
	}
	if err := dialWithWill(ws, token); err == nil {
		t.Error("CONNECT with a Will was admitted")
	}
	for deadline := time.Now().Add(10 * time.Second); s.broker.Connections() > 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("refused connections still hold %d slots", s.broker.Connections())
		}
	}
	reader, err := dialMQTT(t, srv.URL, token)
	if err != nil {
		t.Fatalf("CONNECT with the read token as password: %v", err)
	}
	forger, err := dialWithHeader(t, ws, "Bearer "+token)
	if err != nil {
		t.Fatalf("CONNECT after an upgrade with the read token: %v", err)
	}
	reader.subscribe(t, "milestone-info/confirmed")
	waitSubscribed(t, s, "milestone-info/confirmed")
	forger.Publish("milestone-info/confirmed", 0, false, `{"index":999999}`).WaitTimeout(5 * time.Second)
	if _, resp, err := websocket.DefaultDialer.Dial(ws, http.Header{"Authorization": {"Bearer " + token}}); err == nil ||
		resp == nil || resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("a third connection of one client (cap 2): %v, want 429", err)
	}
	if got := refusedByCap(t, reg); got[rest.CapPerClient] != 1 || len(got) != 1 {
		t.Errorf("api_mqtt_refused_total by reason: %v, want 1 per-client", got)
	}
	ingestMore(t, e, testOptions, n+1, n+1)
	for _, m := range reader.until(t, fmt.Sprintf("milestone-info/confirmed of %d", n+1), confirmed(n+1)) {
		if strings.Contains(string(m.payload), "999999") {
			t.Fatalf("a client's publication reached a subscriber: %s %s", m.topic, m.payload)
		}
	}
}

// plainGet is the status of a GET with the read token.
func plainGet(t *testing.T, url, token string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// dialWithWill connects with the password and a Will.
func dialWithWill(ws, password string) error {
	opts := paho.NewClientOptions().AddBroker(ws).SetClientID("will").SetUsername("r").SetPassword(password).
		SetWill("milestones", "bye", 0, false).SetAutoReconnect(false).SetConnectTimeout(10 * time.Second)
	c := paho.NewClient(opts)
	tok := c.Connect()
	tok.WaitTimeout(15 * time.Second)
	if tok.Error() == nil {
		c.Disconnect(100)
	}
	return tok.Error()
}

// dialWithHeader connects with authorization on the WebSocket upgrade and no password.
func dialWithHeader(t *testing.T, ws, authorization string) (paho.Client, error) {
	opts := paho.NewClientOptions().AddBroker(ws).SetClientID("header").SetAutoReconnect(false).
		SetConnectTimeout(10 * time.Second).SetHTTPHeaders(http.Header{"Authorization": {authorization}})
	c := paho.NewClient(opts)
	tok := c.Connect()
	if !tok.WaitTimeout(15*time.Second) || tok.Error() != nil {
		return nil, fmt.Errorf("connect: %w", tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(100) })
	return c, nil
}

// refusedByCap is api_mqtt_refused_total by its reason label.
func refusedByCap(t *testing.T, reg *prometheus.Registry) map[string]float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, f := range families {
		if f.GetName() != "api_mqtt_refused_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "reason" {
					out[l.GetValue()] += m.GetCounter().GetValue()
				}
			}
		}
	}
	return out
}
