package api

import (
	"fmt"
	"net/http"
	"net/netip"
	"testing"
	"time"
)

// clock is a hand-moved time for the limiter.
type clock struct{ t time.Time }

func (c *clock) now() time.Time      { return c.t }
func (c *clock) add(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *clock               { return &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }
func ip(s string) netip.Addr         { return netip.MustParseAddr(s) }
func admit(t *testing.T, l *limiter, id netip.Addr) func() {
	t.Helper()
	release, refused := l.acquire(id)
	if refused != nil {
		t.Fatalf("%s refused (%s)", id, refused.reason)
	}
	return release
}

// TestLimiterRateAndBurst: a client gets its burst at once, then Rate a second; others
// are not touched; Retry-After is the wait for the next token, rounded up.
func TestLimiterRateAndBurst(t *testing.T) {
	c := newClock()
	l := newLimiter(Limits{Rate: 2, Burst: 5}, c.now)
	a, b := ip("192.0.2.1"), ip("192.0.2.2")
	for range 5 {
		admit(t, l, a)()
	}
	_, refused := l.acquire(a)
	if refused == nil || refused.reason != reasonRate || refused.retryAfter != 1 {
		t.Fatalf("6th request at once: %+v, want a rate refusal with Retry-After 1", refused)
	}
	admit(t, l, b)()              // another client has its own bucket
	c.add(500 * time.Millisecond) // one token at 2/s
	admit(t, l, a)()
	if _, refused := l.acquire(a); refused == nil {
		t.Fatal("a second request within the same half second admitted")
	}
	l2 := newLimiter(Limits{Rate: 0.25, Burst: 1}, c.now)
	admit(t, l2, a)()
	if _, refused := l2.acquire(a); refused == nil || refused.retryAfter != 4 {
		t.Fatalf("at 0.25/s: %+v, want Retry-After 4", refused)
	}
}

// TestLimiterConcurrency: a client's in-flight cap and the global one; a release frees
// a slot (once, however often it is called).
func TestLimiterConcurrency(t *testing.T) {
	l := newLimiter(Limits{ClientConcurrency: 2, MaxInFlight: 3}, newClock().now)
	a, b := ip("192.0.2.1"), ip("192.0.2.2")
	r1, _ := admit(t, l, a), admit(t, l, a)
	if _, refused := l.acquire(a); refused == nil || refused.reason != reasonClientInFlight {
		t.Fatalf("3rd in flight of one client: %+v, want client_in_flight", refused)
	}
	rb := admit(t, l, b)
	if _, refused := l.acquire(ip("192.0.2.3")); refused == nil || refused.reason != reasonInFlight {
		t.Fatalf("4th in flight in all: %+v, want in_flight", refused)
	}
	r1()
	r1() // a second call frees nothing more
	admit(t, l, a)
	if _, refused := l.acquire(a); refused == nil {
		t.Fatal("released twice, counted twice")
	}
	rb()
	admit(t, l, ip("192.0.2.3"))
}

// TestLimiterEviction: idle clients are swept; a full map forgets its least recently
// seen idle client, never one with a request in flight.
func TestLimiterEviction(t *testing.T) {
	c := newClock()
	l := newLimiter(Limits{Rate: 10, Burst: 10, MaxClients: 3, IdleAfter: time.Minute}, c.now)
	for i := 1; i <= 3; i++ {
		admit(t, l, ip(fmt.Sprintf("192.0.2.%d", i)))()
	}
	busy := admit(t, l, ip("192.0.2.1")) // most recently seen, and in flight
	admit(t, l, ip("192.0.2.4"))()       // full: forgets .2, the least recently seen
	if n := l.size(); n != 3 {
		t.Fatalf("%d clients remembered, cap 3", n)
	}
	if _, ok := l.clients[keysOf(ip("192.0.2.2"))[0]]; ok {
		t.Fatal("the least recently seen client was kept")
	}
	c.add(2 * time.Minute)
	admit(t, l, ip("192.0.2.5"))() // sweeps all but .1 (in flight) first
	if n := l.size(); n != 2 {
		t.Fatalf("after the sweep %d clients, want 2 (the busy one and the new one)", n)
	}
	busy()
	c.add(2 * time.Minute)
	admit(t, l, ip("192.0.2.6"))()
	if n := l.size(); n != 1 {
		t.Fatalf("after the second sweep %d clients, want 1", n)
	}
	// Never forgotten before its bucket is full again: at 1/s with burst 600 that is 10m.
	if l := newLimiter(Limits{Rate: 1, Burst: 600, IdleAfter: time.Second}, c.now); l.cfg.IdleAfter <= 10*time.Minute {
		t.Fatalf("idle after %s, before the bucket refills", l.cfg.IdleAfter)
	}
}

// TestClientID: X-Forwarded-For counts only from a trusted proxy, and only up to the
// first address that is not one; IPv6 clients are taken by /64.
func TestClientID(t *testing.T) {
	trusted, err := ParseTrustedProxies("10.0.0.0/8, 127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		remote, xff string
		trusted     bool
		want        string
	}{
		{"192.0.2.1:1234", "", true, "192.0.2.1"},
		{"192.0.2.1:1234", "198.51.100.7", true, "192.0.2.1"}, // not from a proxy: the header is ignored
		{"10.1.2.3:80", "198.51.100.7", false, "10.1.2.3"},    // no proxy trusted
		{"10.1.2.3:80", "198.51.100.7", true, "198.51.100.7"},
		{"127.0.0.1:80", "203.0.113.9, 198.51.100.7, 10.9.9.9", true, "198.51.100.7"}, // spoofed left part ignored
		{"10.1.2.3:80", "10.4.4.4, 10.5.5.5", true, "10.4.4.4"},                       // all proxies: the farthest
		{"10.1.2.3:80", "garbage, 198.51.100.7", true, "198.51.100.7"},
		{"10.1.2.3:80", "198.51.100.7, garbage", true, "10.1.2.3"},
		{"10.1.2.3:80", "", true, "10.1.2.3"},
		{"[2001:db8:1:2:3:4:5:6]:443", "", true, "2001:db8:1:2::"},
		{"[::ffff:192.0.2.1]:443", "", true, "192.0.2.1"},
		{"10.1.2.3:80", "::ffff:198.51.100.7", true, "198.51.100.7"},
	}
	for _, c := range cases {
		r := &http.Request{RemoteAddr: c.remote, Header: http.Header{}}
		if c.xff != "" {
			r.Header.Set("X-Forwarded-For", c.xff)
		}
		tr := trusted
		if !c.trusted {
			tr = nil
		}
		if got := clientID(r, tr); got != ip(c.want) {
			t.Errorf("remote %s, X-Forwarded-For %q (trusted %t): client %s, want %s", c.remote, c.xff, c.trusted, got, c.want)
		}
	}
	for _, bad := range []string{"10.0.0.0/33", "not-an-ip", "10.0.0.1/8/2"} {
		if _, err := ParseTrustedProxies(bad); err == nil {
			t.Errorf("-trusted-proxy %q accepted", bad)
		}
	}
}

// TestLimiterTarpit: refusals of a client over its own limits are held, up to
// maxHeldPerClient; past that they go at once with the connection closed; a held
// refusal keeps its client from being forgotten, and releasing it frees its place.
func TestLimiterTarpit(t *testing.T) {
	c := newClock()
	l := newLimiter(Limits{Rate: 0.001, Burst: 1, Tarpit: time.Second, IdleAfter: time.Hour}, c.now)
	a := ip("192.0.2.1")
	admit(t, l, a)()
	var held []*refusal
	for range maxHeldPerClient {
		_, ref := l.acquire(a)
		if ref == nil || ref.hold != time.Second || ref.close {
			t.Fatalf("refusal %d: %+v, want held a second", len(held)+1, ref)
		}
		held = append(held, ref)
	}
	_, over := l.acquire(a)
	if over == nil || over.hold != 0 || !over.close {
		t.Fatalf("refusal past the held cap: %+v, want sent at once, closing", over)
	}
	held[0].unhold()
	held[0].unhold() // once only
	if _, ref := l.acquire(a); ref == nil || ref.hold == 0 {
		t.Fatalf("after one hold ended: %+v, want held again", ref)
	}
	c.add(2 * time.Hour)
	admit(t, l, ip("192.0.2.2"))() // sweeps
	if _, ok := l.clients[keysOf(a)[0]]; !ok {
		t.Fatal("a client with refusals held was forgotten")
	}
	plain := newLimiter(Limits{Rate: 0.001, Burst: 1}, c.now)
	admit(t, plain, a)()
	if _, ref := plain.acquire(a); ref == nil || ref.hold != 0 || ref.close {
		t.Fatalf("without Tarpit: %+v, want a refusal sent at once", ref)
	}
}
