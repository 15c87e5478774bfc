package api

import (
	"fmt"
	"testing"
	"time"
)

// TestLimiterDefaults: what newLimiter fills in for limits left unset, and what it keeps.
func TestLimiterDefaults(t *testing.T) {
	now := newClock().now
	l := newLimiter(Limits{ClientQueue: 1, GlobalQueue: 1}, now)
	if l.cfg.RowsPerToken != DefaultRowsPerToken || l.cfg.MaxClients != DefaultMaxClients ||
		l.cfg.IdleAfter != DefaultIdleAfter || l.cfg.QueueWait != DefaultQueueWait ||
		l.cfg.GlobalQueueWait != DefaultGlobalQueueWait {
		t.Errorf("defaults: %+v", l.cfg)
	}
	set := Limits{RowsPerToken: -1, MaxClients: 1, IdleAfter: time.Hour, ClientQueue: 1, QueueWait: time.Millisecond,
		GlobalQueue: 1, GlobalQueueWait: 2 * time.Millisecond}
	if l := newLimiter(set, now); l.cfg.RowsPerToken != -1 || l.cfg.MaxClients != 1 || l.cfg.IdleAfter != time.Hour ||
		l.cfg.QueueWait != time.Millisecond || l.cfg.GlobalQueueWait != 2*time.Millisecond {
		t.Errorf("limits set were changed: %+v", l.cfg)
	}
	if l := newLimiter(Limits{}, now); l.cfg.QueueWait != 0 || l.cfg.GlobalQueueWait != 0 {
		t.Errorf("waits without queues: %+v", l.cfg)
	}
	// A client is forgotten no sooner than its bucket refills: 600 tokens at 2/s, and a second.
	if l := newLimiter(Limits{Rate: 2, Burst: 600, IdleAfter: time.Second}, now); l.cfg.IdleAfter != 301*time.Second {
		t.Errorf("idle after %s, want 301s", l.cfg.IdleAfter)
	}
	if l := newLimiter(Limits{Rate: 2, Burst: 600, IdleAfter: time.Hour}, now); l.cfg.IdleAfter != time.Hour {
		t.Errorf("idle after %s, want the hour set", l.cfg.IdleAfter)
	}
}

// TestBurstDefaultsToTwiceTheRate: with no Burst a client may send twice Rate at once
// (rounded up), not one request more.
func TestBurstDefaultsToTwiceTheRate(t *testing.T) {
	for rate, burst := range map[float64]int{2: 4, 0.3: 1, 1.6: 4} {
		l := newLimiter(Limits{Rate: rate}, newClock().now)
		for i := range burst {
			if _, refused := l.acquire(ip("192.0.2.1")); refused != nil {
				t.Fatalf("rate %g: request %d of the burst refused", rate, i+1)
			}
		}
		if _, refused := l.acquire(ip("192.0.2.1")); refused == nil {
			t.Fatalf("rate %g: a request past the burst of %d admitted", rate, burst)
		}
	}
}

// TestRowsCost: what reading rows costs in tokens, and when nothing is charged.
func TestRowsCost(t *testing.T) {
	now := newClock().now
	for _, c := range []struct {
		limits Limits
		rows   int64
		want   int64
	}{
		{Limits{Rate: 1}, 2999, 2},                    // the default, 1000 rows a token
		{Limits{Rate: 1, RowsPerToken: 500}, 1000, 2}, // exactly two tokens' rows
		{Limits{Rate: 1, RowsPerToken: 500}, 999, 1},
		{Limits{Rate: 1, RowsPerToken: -1}, 1e6, 0}, // rows not charged
		{Limits{RowsPerToken: 1}, 1e6, 0},           // no rate: nothing to charge
	} {
		if got := newLimiter(c.limits, now).tokensFor(c.rows); got != c.want {
			t.Errorf("%+v, %d rows: %d tokens, want %d", c.limits, c.rows, got, c.want)
		}
	}
}

// TestChargeBeyondTheBurst: a charge larger than the bucket's burst is taken whole, in
// reservations of at most the burst each; a charge of nothing takes nothing.
func TestChargeBeyondTheBurst(t *testing.T) {
	c := newClock()
	l := newLimiter(Limits{Rate: 1, Burst: 2}, c.now)
	a := ip("192.0.2.1")
	admit(t, l, a)() // 1 token left
	l.charge(a, 0)
	l.charge(a, -5)
	admit(t, l, a)() // 0 left: the charges took nothing
	l.charge(a, 5)   // -5: 6 s until the next token
	if _, refused := l.acquire(a); refused == nil || refused.retryAfter != 6 {
		t.Fatalf("after a charge of 5 past an empty bucket: %+v, want Retry-After 6", refused)
	}
	l.charge(ip("192.0.2.9"), 5) // a client never seen: nothing to charge, nothing made
	if n := l.size(); n != 1 {
		t.Fatalf("%d clients after charging an unknown one, want 1", n)
	}
}

// TestEmptyBucketIsNotDebt: a client whose bucket holds exactly no tokens owes nothing and
// may be forgotten to make room; one below zero may not.
func TestEmptyBucketIsNotDebt(t *testing.T) {
	c := newClock()
	l := newLimiter(Limits{Rate: 1, Burst: 1, MaxClients: 1}, c.now)
	admit(t, l, ip("192.0.2.1"))()
	admit(t, l, ip("192.0.2.2"))() // .1 holds 0 tokens: forgotten
	l.charge(ip("192.0.2.2"), 1)   // .2 holds -1
	if _, refused := l.acquire(ip("192.0.2.3")); refused == nil || refused.reason != reasonClients {
		t.Fatalf("with the table full of a client in debt: %+v, want refused for clients", refused)
	}
}

// TestSweepEveryHalfIdle: the table is swept once half of IdleAfter has passed since the
// last sweep (not a moment later), and a sweep forgets the clients seen IdleAfter ago or
// longer.
func TestSweepEveryHalfIdle(t *testing.T) {
	c := newClock() // the limiter's last sweep is now
	l := newLimiter(Limits{ClientConcurrency: 1, IdleAfter: time.Minute}, c.now)
	at := func(second int, client string) {
		c.t = newClock().t.Add(time.Duration(second) * time.Second)
		admit(t, l, ip(client))()
	}
	remembered := func(client string) bool { _, ok := l.clients[keysOf(ip(client))[0]]; return ok }
	at(10, "192.0.2.1")
	at(50, "192.0.2.2") // sweeps: .1 idle 40 s, kept
	if !remembered("192.0.2.1") {
		t.Fatal("a client idle for less than IdleAfter was forgotten")
	}
	at(80, "192.0.2.3") // exactly half IdleAfter since the sweep: sweeps; .1 idle 70 s, forgotten
	if remembered("192.0.2.1") || l.size() != 2 {
		t.Fatalf("half IdleAfter after a sweep: %d clients, .1 kept %t; want .2 and .3", l.size(), remembered("192.0.2.1"))
	}
	at(110, "192.0.2.4") // sweeps: .2 idle exactly IdleAfter, forgotten; .3 kept
	if remembered("192.0.2.2") || !remembered("192.0.2.3") || l.size() != 2 {
		t.Fatalf("after the third sweep: %d clients, .2 kept %t; want .3 and .4", l.size(), remembered("192.0.2.2"))
	}
}

// TestEvictionLooksAtTheOldestOnly: making room looks at the maxEvictScan least recently
// seen clients; when they are all busy the new client is refused, even though a newer
// one is idle.
func TestEvictionLooksAtTheOldestOnly(t *testing.T) {
	l := newLimiter(Limits{ClientConcurrency: 1, MaxClients: maxEvictScan + 1}, newClock().now)
	var releases []func()
	for i := range maxEvictScan {
		releases = append(releases, admit(t, l, ip(fmt.Sprintf("10.0.%d.%d", i/256, i%256))))
	}
	admit(t, l, ip("192.0.2.1"))() // the newest, idle
	if _, refused := l.acquire(ip("192.0.2.2")); refused == nil || refused.reason != reasonClients {
		t.Fatalf("with the oldest %d busy: %+v, want refused for clients", maxEvictScan, refused)
	}
	releases[maxEvictScan-1]() // the newest of the busy ones
	admit(t, l, ip("192.0.2.2"))()
	if _, ok := l.clients[keysOf(ip(fmt.Sprintf("10.0.%d.%d", (maxEvictScan-1)/256, (maxEvictScan-1)%256)))[0]]; ok {
		t.Fatal("the idle client within the scan was kept")
	}
}

// TestBusyHoldsAClient: each of a client's holds alone keeps it busy.
func TestBusyHoldsAClient(t *testing.T) {
	if (&clientState{}).busy() {
		t.Error("a client holding nothing is busy")
	}
	for name, c := range map[string]*clientState{"in flight": {slots: slots{used: 1}}, "waiting": {waiting: 1},
		"held": {held: 1}, "connected": {conns: 1}} {
		if !c.busy() {
			t.Errorf("%s: not busy", name)
		}
	}
}
