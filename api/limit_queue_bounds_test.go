package api

import (
	"cmp"
	"context"
	"fmt"
	"testing"
	"time"
)

// TestSlotsStandingWait: a controlled queue is standing once it has not emptied for more
// than standingAfter; a request joining it then waits at most standingWait. The clock
// starts when the queue goes from empty to not, and stops when it empties.
func TestSlotsStandingWait(t *testing.T) {
	t0 := newClock().now()
	s := slots{queue: 4, standing: true}
	if got := s.waitFor(time.Second, t0.Add(time.Hour)); got != time.Second {
		t.Fatalf("empty queue: wait %s, want the whole second", got)
	}
	_, first, _ := s.enqueue(t0)
	_, second, _ := s.enqueue(t0.Add(50 * time.Millisecond)) // does not restart the clock
	for _, c := range []struct {
		wait, after, want time.Duration
	}{
		{time.Second, standingAfter, time.Second},               // not past standingAfter yet
		{time.Second, standingAfter + 1, standingWait},          // standing
		{time.Millisecond, standingAfter + 1, time.Millisecond}, // a shorter wait stays shorter
	} {
		if got := s.waitFor(c.wait, t0.Add(c.after)); got != c.want {
			t.Errorf("wait %s, %s after the queue filled: %s, want %s", c.wait, c.after, got, c.want)
		}
	}
	s.remove(first)
	if got := s.waitFor(time.Second, t0.Add(60*time.Millisecond)); got != time.Second {
		t.Fatalf("one waiter left, 60 ms after the queue filled: wait %s, want the whole second", got)
	}
	if got := s.waitFor(time.Second, t0.Add(time.Hour)); got != standingWait {
		t.Fatalf("one waiter left: wait %s, want standingWait (the queue never emptied)", got)
	}
	s.remove(second)
	t1 := t0.Add(time.Hour)
	s.enqueue(t1)
	if got := s.waitFor(time.Second, t1.Add(standingAfter)); got != time.Second {
		t.Fatalf("a queue filled again: wait %s, want the whole second", got)
	}
	plain := slots{queue: 4}
	plain.enqueue(t0)
	if got := plain.waitFor(time.Second, t0.Add(time.Hour)); got != time.Second {
		t.Fatalf("an uncontrolled queue: wait %s, want the whole second", got)
	}
}

// TestSlotsTakeAndRelease: a limit of n gives exactly n slots (0: any number); a queue of
// n holds exactly n waiters (0: none); a release hands the slot to the longest waiter, or
// frees it.
func TestSlotsTakeAndRelease(t *testing.T) {
	s := slots{limit: 2, queue: 2}
	if !s.tryTake() || !s.tryTake() || s.tryTake() || s.used != 2 {
		t.Fatalf("limit 2: used %d", s.used)
	}
	unlimited := slots{}
	for range 10 {
		if !unlimited.tryTake() {
			t.Fatal("no limit: a slot refused")
		}
	}
	now := newClock().now()
	w1, _, ok1 := s.enqueue(now)
	w2, _, ok2 := s.enqueue(now)
	if _, _, ok3 := s.enqueue(now); !ok1 || !ok2 || ok3 {
		t.Fatalf("queue of 2: joined %t %t %t", ok1, ok2, ok3)
	}
	if _, _, ok := (&slots{limit: 1}).enqueue(now); ok {
		t.Fatal("queue of 0: joined")
	}
	s.release()
	select {
	case <-w1.ready:
	default:
		t.Fatal("the longest waiter was not handed the slot")
	}
	if !w1.granted || w2.granted || s.used != 2 || s.waiters.Len() != 1 {
		t.Fatalf("after handing a slot: granted %t %t, used %d, %d waiting", w1.granted, w2.granted, s.used, s.waiters.Len())
	}
	s.release()
	s.release()
	if s.used != 1 || s.waiters.Len() != 0 {
		t.Fatalf("after two more releases: used %d, want 1; %d waiting", s.used, s.waiters.Len())
	}
}

// TestReserveWaitBounds: a request whose token comes exactly QueueWait later waits for it;
// a moment later than QueueWait, or with its client's queue full, it is refused, its
// Retry-After the wait rounded up to whole seconds.
func TestReserveWaitBounds(t *testing.T) {
	c := newClock()
	l := newLimiter(Limits{Rate: 1, Burst: 1, ClientQueue: 2, QueueWait: time.Second}, c.now)
	a := ip("192.0.2.1")
	admit(t, l, a)()
	states := l.entries(a, c.now())
	delay, ref := l.reserve(states[0], states, c.now())
	if ref != nil || delay != time.Second {
		t.Fatalf("a token exactly QueueWait away: wait %s, refusal %+v; want to wait 1s", delay, ref)
	}
	states[0].waiting = 1 // one place of the queue left
	if _, ref := l.reserve(states[0], states, c.now()); ref == nil || ref.retryAfter != 2 {
		t.Fatalf("a token 2s away, QueueWait 1s: %+v, want refused, Retry-After 2", ref)
	}
	c.add(1500 * time.Millisecond) // 2 tokens reserved: the next is 0.5 s away
	states[0].waiting = 2          // the queue is full
	if _, ref := l.reserve(states[0], states, c.now()); ref == nil || ref.reason != reasonRate || ref.retryAfter != 1 {
		t.Fatalf("queue full, a token 0.5 s away: %+v, want refused for rate, Retry-After 1", ref)
	}
	states[0].waiting = 1
	if delay, ref := l.reserve(states[0], states, c.now()); ref != nil || delay != 500*time.Millisecond {
		t.Fatalf("after the refusals gave their tokens back: wait %s, %+v; want 0.5 s", delay, ref)
	}
}

// TestReserveSlotQueue: with its in-flight cap reached, a request may wait for a slot while
// its client's queue has room, and is refused when the queue is full; without the cap
// reached (or without a cap) a full queue does not matter.
func TestReserveSlotQueue(t *testing.T) {
	l := newLimiter(Limits{ClientConcurrency: 1, ClientQueue: 1}, newClock().now)
	a := ip("192.0.2.1")
	states := l.entries(a, l.now())
	c := states[0]
	for _, k := range []struct {
		used, waiting int
		refused       bool
	}{{0, 0, false}, {0, 1, false}, {1, 0, false}, {1, 1, true}} {
		c.slots.used, c.waiting = k.used, k.waiting
		if _, ref := l.reserve(c, states, l.now()); (ref != nil) != k.refused || k.refused && ref.reason != reasonClientInFlight {
			t.Errorf("%d in flight, %d waiting: refusal %+v, want refused %t", k.used, k.waiting, ref, k.refused)
		}
	}
	uncapped := newLimiter(Limits{Rate: 100}, l.now)
	states = uncapped.entries(a, l.now())
	states[0].slots.used = 5
	if _, ref := uncapped.reserve(states[0], states, l.now()); ref != nil {
		t.Fatalf("no in-flight cap, no queue: %+v, want admitted", ref)
	}
}

// TestTarpitHoldsAtMostMaxHeld: refusals are held up to maxHeld over all clients; past
// that one goes at once, closing; a hold ended makes room for the next.
func TestTarpitHoldsAtMostMaxHeld(t *testing.T) {
	l := newLimiter(Limits{Rate: 0.001, Burst: 1, Tarpit: time.Second}, newClock().now)
	var first *refusal
	for i := range maxHeld / maxHeldPerClient {
		id := ip(fmt.Sprintf("10.0.0.%d", i))
		admit(t, l, id)()
		for range maxHeldPerClient {
			_, ref := l.acquire(id)
			if ref == nil || ref.hold == 0 {
				t.Fatalf("refusal %d of client %d not held: %+v", l.held+1, i, ref)
			}
			first = cmp.Or(first, ref)
		}
	}
	other := ip("192.0.2.1")
	admit(t, l, other)()
	if _, ref := l.acquire(other); ref == nil || ref.hold != 0 || !ref.close {
		t.Fatalf("refusal past maxHeld: %+v, want sent at once, closing", ref)
	}
	first.unhold()
	if _, ref := l.acquire(other); ref == nil || ref.hold == 0 {
		t.Fatalf("after one hold ended: %+v, want held", ref)
	}
}

// TestAfterWaitRefusal: a request that waited in vain is refused for what it waited for,
// unless its client left, when nothing is to be sent.
func TestAfterWaitRefusal(t *testing.T) {
	l := newLimiter(Limits{Tarpit: time.Second}, newClock().now)
	if ref := l.afterWait(context.Background(), reasonInFlight); ref.reason != reasonInFlight || ref.retryAfter != 1 || ref.hold != 0 {
		t.Fatalf("waited in vain: %+v", ref)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if ref := l.afterWait(ctx, reasonInFlight); ref.reason != reasonGone {
		t.Fatalf("client left: %+v, want gone", ref)
	}
}

// TestAdmitCountsItsWaiters: a request waiting for its token holds a place of its
// client's queue: with ClientQueue 1 taken, the next request over the rate is refused at
// once.
func TestAdmitCountsItsWaiters(t *testing.T) {
	l := newLimiter(Limits{Rate: 1, Burst: 1, ClientQueue: 1, QueueWait: 5 * time.Second}, time.Now)
	a := ip("192.0.2.1")
	admit(t, l, a)()
	waiting := admitAsync(l, "192.0.2.1")
	waitUntil(t, func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.clients[keysOf(a)[0]].Value.(*clientState).waiting == 1
	})
	if _, refused := l.acquire(a); refused == nil || refused.reason != reasonRate {
		t.Fatalf("past a queue of 1 that is taken: %+v, want refused for rate at once", refused)
	}
	wantOutcome(t, waiting, "", 5*time.Second)
}

// TestAdmitWaitsQueueWaitInAll: the wait for a token counts against QueueWait: what is
// left of it is the most a request then waits for its slot, so a slot freed later comes
// too late.
func TestAdmitWaitsQueueWaitInAll(t *testing.T) {
	l := newLimiter(Limits{Rate: 1, Burst: 1, ClientConcurrency: 1, ClientQueue: 4, QueueWait: 1200 * time.Millisecond},
		time.Now)
	a := ip("192.0.2.1")
	release := admit(t, l, a) // takes the token and the slot
	late := admitAsync(l, "192.0.2.1")
	time.Sleep(2200 * time.Millisecond) // the token came at 1 s; QueueWait ended at 1.2 s
	release()
	wantOutcome(t, late, reasonClientInFlight, 5*time.Second)
}

// TestAdmitNeedsNoContextWithoutAWait: a request that waits for nothing is admitted at
// once, without a look at whether its client is still there (its handler finds out).
func TestAdmitNeedsNoContextWithoutAWait(t *testing.T) {
	l := newLimiter(Limits{Rate: 1000, Burst: 1000, ClientQueue: 1}, time.Now)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for i := range 20 {
		release, refused := l.admit(ctx, ip("192.0.2.1"))
		if refused != nil {
			t.Fatalf("request %d: %+v, want admitted", i+1, refused)
		}
		release()
	}
}

// waitUntil polls cond until it holds, for at most 5 s.
func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 5 s")
		}
	}
}
