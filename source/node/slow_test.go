package node

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
)

// holdingProxy serves n, but holds the requests whose path held selects for hold (or
// until the request or the test ends) before they reach n, and counts them.
type holdingProxy struct {
	srv  *httptest.Server
	held atomic.Int32
}

func newHoldingProxy(t *testing.T, n *nodetest.Server, held func(path string) bool, hold time.Duration) *holdingProxy {
	t.Helper()
	release := make(chan struct{})
	p := &holdingProxy{}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if held(r.URL.Path) {
			p.held.Add(1)
			select {
			case <-time.After(hold):
			case <-r.Context().Done():
				return
			case <-release:
				return
			}
		}
		n.ServeHTTP(w, r)
	}))
	t.Cleanup(p.srv.Close)
	t.Cleanup(func() { close(release) }) // runs first: no handler is left waiting
	return p
}

func isMilestonePayload(path string) bool {
	rest, ok := strings.CutPrefix(path, apiBase+"/milestones/by-index/")
	return ok && !strings.Contains(rest, "/")
}

// A node far slower than the other (2 s an answer) is benched once its latency is known:
// the status polls and the milestones are then served by the fast node alone.
func TestSlowNodeIsBenched(t *testing.T) {
	slow, _ := fakeNode(t)
	fast, _ := fakeNode(t)
	slow.SetLatency(2 * time.Second)
	s := newSource(t, slow, func(c *Config) { c.URLs, c.Attempts, c.ReadAhead = []string{fast.URL()}, 2, -1 })
	if _, err := s.Network(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Latest(ctxT(t)); err != nil { // the slow node's second answer
		t.Fatal(err)
	}
	slow.ResetCounts()
	for range 3 {
		if latest, err := s.Latest(ctxT(t)); err != nil || latest != 17340 {
			t.Fatalf("Latest = %d, %v; want 17340", latest, err)
		}
	}
	// The polls above fetched the tip's payload once to verify it; only the reads count here.
	verified := fast.Count(nodetest.RouteMilestoneByIndex)
	readBoth(t, s)
	if got := slow.Counts(); len(got) != 0 {
		t.Fatalf("the slow node was asked %v after its latency was known, want nothing", got)
	}
	if got := fast.Count(nodetest.RouteMilestoneByIndex) - verified; got != 6 {
		t.Fatalf("the fast node served %d milestones, want all 6", got)
	}
	if got := testutil.ToFloat64(s.metrics.benches.WithLabelValues(hostOfServer(t, slow))); got < 1 {
		t.Fatalf("the slow node was benched %v times, want at least once", got)
	}
}

// A node whose /info hangs does not hold the status poll past InfoTimeout: the poll
// answers with the other node's status, and the hung node is benched.
func TestHungInfoDoesNotHoldThePoll(t *testing.T) {
	a, _ := fakeNode(t)
	b, _ := fakeNode(t)
	hung := newHoldingProxy(t, a, func(path string) bool { return path == apiBase+"/info" }, time.Hour)
	s, err := New(Config{URLs: []string{hung.srv.URL, b.URL()}, Attempts: 2, Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	latest, err := s.Latest(ctxT(t))
	if err != nil || latest != 17340 {
		t.Fatalf("Latest = %d, %v; want 17340 from the node that answers", latest, err)
	}
	if took := time.Since(start); took > 15*time.Second { // InfoTimeout is 2.5 s; the request timeout 30 s
		t.Fatalf("the poll took %s with a hung node", took)
	}
	if got := testutil.ToFloat64(s.metrics.benched.WithLabelValues(strings.TrimPrefix(hung.srv.URL, "http://"))); got != 1 {
		t.Fatalf("the hung node's benched gauge = %v, want 1", got)
	}
}

// A milestone a node does not answer within the hedge delay is asked from the other node,
// whose answer is used (and checked against the data) while the first read is dropped.
func TestMilestoneHedgedToTheOtherNode(t *testing.T) {
	a, set := fakeNode(t)
	b, _ := fakeNode(t)
	held := newHoldingProxy(t, a, isMilestonePayload, 20*time.Second)
	s, err := New(Config{URLs: []string{held.srv.URL, b.URL()}, Attempts: 2, Timeout: time.Minute,
		HedgeAfter: 100 * time.Millisecond, ReadAhead: -1})
	if err != nil {
		t.Fatal(err)
	}
	reads := 0
	for range 2 {
		for _, index := range []uint32{17339, 17340} {
			vm, err := s.Milestone(ctxT(t), index)
			if err != nil {
				t.Fatalf("milestone %d: %v", index, err)
			}
			cm := vm.Confirmed()
			checkAgainstData(t, cm, set.Milestones[index])
			reads++
		}
	}
	if held.held.Load() == 0 {
		t.Fatal("the held node was never asked first: nothing was hedged")
	}
	if got := b.Count(nodetest.RouteMilestoneByIndex); got != reads {
		t.Fatalf("the other node served %d of %d reads, want all", got, reads)
	}
	if got := a.Count(nodetest.RouteMilestoneByIndex); got != 0 {
		t.Fatalf("the held node's answer reached the source %d times, want 0", got)
	}
	if got := testutil.ToFloat64(s.metrics.hedges.WithLabelValues(hostOfServer(t, b))); got < 1 {
		t.Fatalf("%v hedges to the other node, want at least one", got)
	}
}

// A hedge's answer is verified as any other: one that fails is refused and its node
// benched, and the slow node's true answer is used.
func TestHedgedAnswerIsVerified(t *testing.T) {
	a, set := fakeNode(t)
	b, _ := fakeNode(t)
	held := newHoldingProxy(t, a, isMilestonePayload, time.Second)
	b.CorruptBlock(set.Milestones[17339].Cone[5].ID, true)
	s, err := New(Config{URLs: []string{held.srv.URL, b.URL()}, Attempts: 1, Timeout: time.Minute,
		HedgeAfter: 100 * time.Millisecond, ReadAhead: -1})
	if err != nil {
		t.Fatal(err)
	}
	vm, err := s.Milestone(ctxT(t), 17339)
	if err != nil {
		t.Fatal(err)
	}
	checkAgainstData(t, vm.Confirmed(), set.Milestones[17339])
	if got := testutil.ToFloat64(s.metrics.benches.WithLabelValues(hostOfServer(t, b))); got != 1 {
		t.Fatalf("the lying node was benched %v times, want 1", got)
	}
}
