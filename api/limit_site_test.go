package api

import (
	"fmt"
	"testing"
	"time"
)

// TestSiteBucket: the /64s of one IPv6 /48 share a second bucket, siteShare clients'
// worth: walking fresh /64s of one site does not give it a fresh burst each, while
// another site, and an IPv4 client, keep their own.
func TestSiteBucket(t *testing.T) {
	c := newClock()
	l := newLimiter(Limits{Rate: 1, Burst: 10}, c.now)
	admitted := 0
	for i := range 40 { // 40 /64s of 2001:db8:1::/48, each asking for its whole burst
		for range 10 {
			if release, refused := l.acquire(ip(fmt.Sprintf("2001:db8:1:%x::", i))); refused == nil {
				admitted++
				release()
			}
		}
	}
	if want := 16 * 10; admitted != want {
		t.Fatalf("one /48 walking 40 /64s got %d requests at once, want its site's burst %d", admitted, want)
	}
	admit(t, l, ip("2001:db8:2::"))() // another site
	admit(t, l, ip("192.0.2.1"))()
	c.add(time.Second) // one token a second per /64, 16 for the site
	admit(t, l, ip("2001:db8:1:ff::"))()
}

// TestDebtNeverForgotten: with the client table full of clients in debt, a new client
// is refused ("clients") rather than one of them forgotten, which would erase its debt:
// the indebted client stays refused until it has paid.
func TestDebtNeverForgotten(t *testing.T) {
	c := newClock()
	l := newLimiter(Limits{Rate: 1, Burst: 2, MaxClients: 2, RowsPerToken: 1}, c.now)
	a, b := ip("192.0.2.1"), ip("192.0.2.2")
	admit(t, l, a)()
	admit(t, l, b)()
	l.charge(a, 100) // 1 - 100 tokens: 99 s of debt
	l.charge(b, 100)
	if _, refused := l.acquire(ip("192.0.2.3")); refused == nil || refused.reason != "clients" {
		t.Fatalf("a new client with the table full of indebted ones: %+v, want refused for clients", refused)
	}
	c.add(10 * time.Second)
	if _, refused := l.acquire(a); refused == nil || refused.reason != reasonRate || refused.retryAfter < 80 {
		t.Fatalf("the indebted client after 10 s: %+v, want refused for rate, some 90 s to wait", refused)
	}
	c.add(100 * time.Second) // both have paid
	admit(t, l, ip("192.0.2.3"))()
	if n := l.size(); n != 2 {
		t.Fatalf("%d clients remembered, cap 2", n)
	}
}
