package api

import (
	"net/netip"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// TestLimitsEnabledByAnyOne: no limit set limits nothing; any one of them set alone
// turns the limiter on.
func TestLimitsEnabledByAnyOne(t *testing.T) {
	if (Limits{}).enabled() {
		t.Error("the zero Limits enabled")
	}
	for name, l := range map[string]Limits{"Rate": {Rate: 0.5}, "ClientConcurrency": {ClientConcurrency: 1},
		"MaxInFlight": {MaxInFlight: 1}, "ClientConnections": {ClientConnections: 1}, "MinSendRate": {MinSendRate: 1}} {
		if !l.enabled() {
			t.Errorf("%s alone: not enabled", name)
		}
	}
}

// TestTrustedProxyForms: an address is its own prefix; a CIDR is masked; an IPv4-mapped
// IPv6 CIDR is the IPv4 CIDR it maps (its bits less 96, at least 0); empty parts are
// skipped.
func TestTrustedProxyForms(t *testing.T) {
	got, err := ParseTrustedProxies(" 192.0.2.7 ,, 10.1.2.3/8, ::ffff:172.16.0.0/108, ::ffff:0.0.0.0/90, 2001:db8::1")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"192.0.2.7/32", "10.0.0.0/8", "172.16.0.0/12", "0.0.0.0/0", "2001:db8::1/128"}
	if len(got) != len(want) {
		t.Fatalf("%v, want %v", got, want)
	}
	for i := range want {
		if got[i] != netip.MustParsePrefix(want[i]) {
			t.Errorf("proxy %d: %s, want %s", i, got[i], want[i])
		}
	}
}

// TestRemoteAddrForms: the client of a remote address with or without a port, with a
// named port, bracketed IPv6 without one; anything else is the zero address.
func TestRemoteAddrForms(t *testing.T) {
	for remote, want := range map[string]string{
		"192.0.2.1:1234": "192.0.2.1", "192.0.2.1": "192.0.2.1", "192.0.2.1:http": "192.0.2.1",
		"[2001:db8::1]:443": "2001:db8::1", "[2001:db8::1]": "2001:db8::1", "[::ffff:192.0.2.9]:80": "192.0.2.9",
	} {
		if got := remoteAddr(remote); got != ip(want) {
			t.Errorf("remote %q: %s, want %s", remote, got, want)
		}
	}
	if got := remoteAddr("not an address"); got.IsValid() {
		t.Errorf("garbage: %s, want the zero address", got)
	}
}

// TestConnectionCapCounts: without a cap every connection opens; with one, a client opens
// exactly that many, a closed one frees a place, and an IPv6 site opens siteShare times as
// many over its /64s.
func TestConnectionCapCounts(t *testing.T) {
	open := newLimiter(Limits{Rate: 1}, newClock().now)
	for range 3 {
		if reason, ok := open.openConn(ip("192.0.2.1")); !ok {
			t.Fatalf("no connection cap: refused (%s)", reason)
		}
	}
	l := newLimiter(Limits{ClientConnections: 2}, newClock().now)
	a := ip("192.0.2.1")
	for i := range 2 {
		if _, ok := l.openConn(a); !ok {
			t.Fatalf("connection %d of 2 refused", i+1)
		}
	}
	if reason, ok := l.openConn(a); ok || reason != reasonConnections {
		t.Fatalf("the third connection: %t (%s), want refused for connections", ok, reason)
	}
	l.closeConn(a)
	if _, ok := l.openConn(a); !ok {
		t.Fatal("a closed connection did not free its place")
	}
	opened := 0
	for i := range 40 { // 40 /64s of one /48, two connections each
		for range 2 {
			if _, ok := l.openConn(ip("2001:db8:1:" + rest.Itoa(i+1) + "::")); ok {
				opened++
			}
		}
	}
	if opened != 2*siteShare {
		t.Fatalf("one site opened %d connections, want %d", opened, 2*siteShare)
	}
}

// TestConnectionsKeepAClient: a client whose only hold is an open connection is not
// forgotten by the sweep.
func TestConnectionsKeepAClient(t *testing.T) {
	c := newClock()
	l := newLimiter(Limits{ClientConnections: 1, IdleAfter: time.Minute}, c.now)
	l.openConn(ip("192.0.2.1"))
	c.add(time.Hour)
	l.openConn(ip("192.0.2.2")) // sweeps
	if _, ok := l.clients[keysOf(ip("192.0.2.1"))[0]]; !ok {
		t.Fatal("a client with a connection open was forgotten")
	}
}
