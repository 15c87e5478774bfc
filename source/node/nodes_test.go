package node

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/testsupport/httpcall"
)

// twoNodes is a source over two fake nodes, its metrics registered.
func twoNodes(t *testing.T) (*Source, *nodetest.Server, *nodetest.Server, *prometheus.Registry) {
	t.Helper()
	a, _ := fakeNode(t)
	b, _ := fakeNode(t)
	s := newSource(t, a, func(c *Config) { c.URLs, c.Attempts = []string{b.URL()}, 2 })
	reg := prometheus.NewRegistry()
	if err := s.Register(reg); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Network(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	return s, a, b, reg
}

func hostOfServer(t *testing.T, n interface{ URL() string }) string {
	u, err := url.Parse(n.URL())
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

// Milestones 17339-17340 several times over, each served whole whichever node serves it.
func readBoth(t *testing.T, s *Source) {
	t.Helper()
	_, set := fakeNode(t)
	for range 3 {
		for _, index := range []uint32{17339, 17340} {
			vm, err := s.Milestone(ctxT(t), index)
			if err != nil {
				t.Fatalf("milestone %d: %v", index, err)
			}
			cm := vm.Confirmed()
			checkAgainstData(t, cm, set.Milestones[index])
		}
	}
}

// The milestones read spread over the healthy nodes.
func TestNodesShareTheMilestones(t *testing.T) {
	s, a, b, _ := twoNodes(t)
	readBoth(t, s)
	if a.Count(nodetest.RouteMilestoneByIndex) == 0 || b.Count(nodetest.RouteMilestoneByIndex) == 0 {
		t.Fatalf("milestone requests: %d and %d, want both nodes asked", a.Count(nodetest.RouteMilestoneByIndex),
			b.Count(nodetest.RouteMilestoneByIndex))
	}
}

// A node that dies is benched; the other serves every milestone.
func TestDeadNodeIsBenched(t *testing.T) {
	s, a, b, reg := twoNodes(t)
	a.DieAfter(0)
	readBoth(t, s)
	if got := testutil.ToFloat64(s.metrics.benched.WithLabelValues(hostOfServer(t, a))); got != 1 {
		t.Fatalf("dead node's benched gauge = %v, want 1", got)
	}
	if got := testutil.ToFloat64(s.metrics.benched.WithLabelValues(hostOfServer(t, b))); got != 0 {
		t.Fatalf("live node's benched gauge = %v, want 0", got)
	}
	if n, err := testutil.GatherAndCount(reg, "indexer_node_requests_total"); err != nil || n != 2 {
		t.Fatalf("request series = %d (%v), want one a node", n, err)
	}
	a.ResetCounts()
	if latest, err := s.Latest(ctxT(t)); err != nil || latest != 17340 {
		t.Fatalf("Latest = %d, %v; want 17340", latest, err)
	}
	if got := a.Count(nodetest.RouteInfo); got != 0 {
		t.Fatalf("the benched node was asked its status %d times, want 0", got)
	}
}

// A node that lies (block bytes not hashing to their ID) is benched; the other serves.
func TestLyingNodeIsBenched(t *testing.T) {
	s, a, _, _ := twoNodes(t)
	_, set := fakeNode(t)
	a.CorruptBlock(set.Milestones[17339].Cone[5].ID, true)
	a.CorruptBlock(set.Milestones[17340].Cone[7].ID, true)
	readBoth(t, s)
	if got := testutil.ToFloat64(s.metrics.benches.WithLabelValues(hostOfServer(t, a))); got < 1 {
		t.Fatalf("lying node benched %v times, want at least once", got)
	}
}

// A lagging node lowers neither Latest nor is asked for what it has not confirmed.
func TestLaggingNode(t *testing.T) {
	s, a, _, _ := twoNodes(t)
	if err := a.SetConfirmed(17339); err != nil {
		t.Fatal(err)
	}
	latest, err := s.Latest(ctxT(t))
	if err != nil || latest != 17340 {
		t.Fatalf("Latest = %d, %v; want 17340", latest, err)
	}
	readBoth(t, s)
}

// When every node refuses a milestone, the source refuses it; a lie is reported before
// a "not held".
func TestEveryNodeRefuses(t *testing.T) {
	s, a, b, _ := twoNodes(t)
	_, set := fakeNode(t)
	bad := set.Milestones[17339].Cone[5].ID
	a.CorruptBlock(bad, true)
	b.CorruptBlock(bad, true)
	_, err := s.Milestone(ctxT(t), 17339)
	if !errors.As(err, new(*source.Refusal)) || !strings.Contains(err.Error(), "the bytes hash to") {
		t.Fatalf("err = %v, want the refusal of the corrupt block", err)
	}
}

// A milestone a pruned node no longer holds comes from the other node, and the pruned
// node is not benched for it (it serves what it holds); held by none, it is refused as
// not held.
func TestNotHeldComesFromTheOther(t *testing.T) {
	s, a, b, _ := twoNodes(t)
	if err := a.SetPruningIndex(17339); err != nil {
		t.Fatal(err)
	}
	for range 2 { // one of the two asks goes to the pruned node first
		if _, err := s.Milestone(ctxT(t), 17339); err != nil {
			t.Fatal(err)
		}
	}
	if got := testutil.ToFloat64(s.metrics.benches.WithLabelValues(hostOfServer(t, a))); got != 0 {
		t.Fatalf("the pruned node was benched %v times for a milestone it does not hold, want 0", got)
	}
	if err := b.SetPruningIndex(17339); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Milestone(ctxT(t), 17339); !errors.Is(err, source.ErrNotHeld) {
		t.Fatalf("err = %v, want ErrNotHeld", err)
	}
}

// Nodes of different networks are refused at start, naming both.
func TestMixedNetworksRefused(t *testing.T) {
	a, _ := fakeNode(t)
	other := otherNetwork(t, a)
	s := newSource(t, a, func(c *Config) { c.URLs = []string{other.URL} })
	_, err := s.Network(ctxT(t))
	if !errors.Is(err, ErrMixedNetworks) || !strings.Contains(err.Error(), hostOfServer(t, a)) ||
		!strings.Contains(err.Error(), strings.TrimPrefix(other.URL, "http://")) {
		t.Fatalf("err = %v, want ErrMixedNetworks naming both nodes", err)
	}
}

// otherNetwork serves n's /info renamed to another network.
func otherNetwork(t *testing.T, n *nodetest.Server) *httptest.Server {
	t.Helper()
	_, raw := httpcall.Get(t, n.URL()+apiBase+"/info")
	var info map[string]any
	if err := json.Unmarshal(raw, &info); err != nil {
		t.Fatal(err)
	}
	info["protocol"].(map[string]any)["networkName"] = "testnet"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", mimeJSON)
		_ = json.NewEncoder(w).Encode(info)
	}))
	t.Cleanup(srv.Close)
	return srv
}
