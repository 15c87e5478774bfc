package api

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// admitAsync admits a request of id in the background; the channel gets its outcome.
func admitAsync(l *limiter, id string) chan *refusal {
	out := make(chan *refusal, 1)
	go func() {
		release, refused := l.admit(context.Background(), ip(id))
		if refused == nil {
			defer release()
			out <- nil
			time.Sleep(50 * time.Millisecond)
			return
		}
		out <- refused
	}()
	return out
}

func wantOutcome(t *testing.T, ch chan *refusal, wantReason string, within time.Duration) {
	t.Helper()
	select {
	case got := <-ch:
		if (got == nil) != (wantReason == "") || got != nil && got.reason != wantReason {
			t.Fatalf("outcome %+v, want reason %q", got, wantReason)
		}
	case <-time.After(within):
		t.Fatalf("no outcome within %s (want reason %q)", within, wantReason)
	}
}

func wantWaiting(t *testing.T, ch chan *refusal) {
	t.Helper()
	select {
	case got := <-ch:
		t.Fatalf("decided at once (%+v), want it waiting", got)
	case <-time.After(100 * time.Millisecond):
	}
}

// TestClientQueue: a client's requests over its in-flight cap wait, first come first
// served, for a slot; past ClientQueue waiting a request is refused at once, and one
// that waits QueueWait in vain is refused then, without a tarpit hold.
func TestClientQueue(t *testing.T) {
	l := newLimiter(Limits{ClientConcurrency: 1, ClientQueue: 2, QueueWait: 5 * time.Second, Tarpit: time.Second},
		time.Now)
	release := admit(t, l, ip("192.0.2.1"))
	first, second := admitAsync(l, "192.0.2.1"), admitAsync(l, "192.0.2.1")
	wantWaiting(t, first)
	wantWaiting(t, second)
	if _, refused := l.acquire(ip("192.0.2.1")); refused == nil || refused.reason != reasonClientInFlight {
		t.Fatalf("past the queue: %+v, want client_in_flight at once", refused)
	}
	admit(t, l, ip("192.0.2.2"))() // another client is not held up
	release()
	wantOutcome(t, first, "", time.Second)
	wantOutcome(t, second, "", time.Second)

	short := newLimiter(Limits{ClientConcurrency: 1, ClientQueue: 4, QueueWait: 150 * time.Millisecond,
		Tarpit: time.Second}, time.Now)
	defer admit(t, short, ip("192.0.2.1"))()
	start := time.Now()
	_, refused := short.admit(context.Background(), ip("192.0.2.1"))
	if refused == nil || refused.reason != reasonClientInFlight || refused.hold != 0 || time.Since(start) < 150*time.Millisecond {
		t.Fatalf("after QueueWait in vain: %+v after %s, want client_in_flight, not held", refused, time.Since(start))
	}
}

// TestRateQueue: a request over the client's rate waits for its token when that comes
// within QueueWait, and is refused at once (with the wait as Retry-After) when it does
// not.
func TestRateQueue(t *testing.T) {
	l := newLimiter(Limits{Rate: 20, Burst: 1, ClientQueue: 16, QueueWait: time.Second}, time.Now)
	start := time.Now()
	for range 5 {
		admit(t, l, ip("192.0.2.1"))()
	}
	if took := time.Since(start); took < 150*time.Millisecond {
		t.Fatalf("5 requests at 20/s with a burst of 1 admitted in %s, want them paced", took)
	}
	slow := newLimiter(Limits{Rate: 0.5, Burst: 1, ClientQueue: 16, QueueWait: time.Second}, time.Now)
	admit(t, slow, ip("192.0.2.1"))()
	if _, refused := slow.acquire(ip("192.0.2.1")); refused == nil || refused.reason != reasonRate || refused.retryAfter != 2 {
		t.Fatalf("a token 2 s away with a 1 s queue: %+v, want rate, Retry-After 2", refused)
	}
}

// TestGlobalQueue: requests over MaxInFlight wait in the global queue (GlobalQueue of
// them, GlobalQueueWait each) whatever their client.
func TestGlobalQueue(t *testing.T) {
	l := newLimiter(Limits{MaxInFlight: 1, GlobalQueue: 1, GlobalQueueWait: 5 * time.Second}, time.Now)
	release := admit(t, l, ip("192.0.2.1"))
	waiting := admitAsync(l, "192.0.2.2")
	wantWaiting(t, waiting)
	if _, refused := l.acquire(ip("192.0.2.3")); refused == nil || refused.reason != reasonInFlight {
		t.Fatalf("past the global queue: %+v, want in_flight", refused)
	}
	release()
	wantOutcome(t, waiting, "", time.Second)
}

// TestConnectionCap: a client's connections past ClientConnections are answered 429
// and closed before a request is read; another client's are not, and a closed one
// frees its place.
func TestConnectionCap(t *testing.T) {
	s := New(nil, Config{Limits: Limits{ClientConnections: 2}})
	server := serveBig(t, s)
	dial := func(last byte) net.Conn {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, last)}}
		c, err := d.Dial("tcp", server)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	get := func(c net.Conn) int {
		_ = c.SetDeadline(time.Now().Add(5 * time.Second))
		if _, err := c.Write([]byte("GET /openapi.json HTTP/1.1\r\nHost: api\r\n\r\n")); err != nil {
			return 0
		}
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	a1, a2 := dial(60), dial(60)
	if get(a1) != http.StatusOK || get(a2) != http.StatusOK {
		t.Fatal("the first two connections were not served")
	}
	over := dial(60)
	_ = over.SetReadDeadline(time.Now().Add(5 * time.Second))
	line, _ := bufio.NewReader(over).ReadString('\n')
	if !strings.HasPrefix(line, "HTTP/1.1 429") {
		t.Fatalf("the third connection got %q, want a 429", line)
	}
	if get(dial(61)) != http.StatusOK {
		t.Fatal("another client's connection was refused")
	}
	a1.Close()
	deadline := time.Now().Add(5 * time.Second)
	for get(dial(60)) != http.StatusOK {
		if time.Now().After(deadline) {
			t.Fatal("a closed connection did not free its place")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestQueuesLeakNothing: many requests of a few clients through short queues, admitted,
// refused, timed out and left midway: afterwards no slot is taken and no one waits.
func TestQueuesLeakNothing(t *testing.T) {
	l := newLimiter(Limits{ClientConcurrency: 2, ClientQueue: 8, QueueWait: 20 * time.Millisecond, MaxInFlight: 3,
		GlobalQueue: 2, GlobalQueueWait: 10 * time.Millisecond}, time.Now)
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Duration(i%7)*3*time.Millisecond)
			defer cancel()
			release, refused := l.admit(ctx, ip(fmt.Sprintf("192.0.2.%d", i%4)))
			if refused == nil {
				time.Sleep(time.Duration(i%5) * time.Millisecond)
				release()
			}
		})
	}
	wg.Wait()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.global.used != 0 || l.global.waiters.Len() != 0 {
		t.Fatalf("global: %d in flight, %d waiting after all ended", l.global.used, l.global.waiters.Len())
	}
	for key, e := range l.clients {
		if c := e.Value.(*clientState); c.busy() {
			t.Errorf("%s: %d in flight, %d waiting, %d queued after all ended", key, c.slots.used, c.waiting,
				c.slots.waiters.Len())
		}
	}
}

// TestStandingGlobalQueue: a request joining a global queue that has not emptied for
// standingAfter waits only standingWait before its 429; one joining a fresh queue waits
// up to GlobalQueueWait.
func TestStandingGlobalQueue(t *testing.T) {
	c := &lockedClock{c: newClock()}
	l := newLimiter(Limits{MaxInFlight: 1, GlobalQueue: 8, GlobalQueueWait: 2 * time.Second}, c.now)
	defer admit(t, l, ip("192.0.2.1"))()
	first := admitAsync(l, "192.0.2.2")
	wantWaiting(t, first)
	c.add(standingAfter + time.Millisecond) // the queue has not emptied since
	start := time.Now()
	if _, refused := l.admit(context.Background(), ip("192.0.2.3")); refused == nil || refused.reason != reasonInFlight ||
		time.Since(start) > time.Second {
		t.Fatalf("joining a standing queue: %+v after %s, want in_flight within about %s", refused, time.Since(start),
			standingWait)
	}
	wantWaiting(t, first) // those already waiting keep their wait
}

// lockedClock is a clock that waiting goroutines may read while the test moves it.
type lockedClock struct {
	mu sync.Mutex
	c  *clock
}

func (l *lockedClock) now() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.c.now()
}

func (l *lockedClock) add(d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.c.add(d)
}
