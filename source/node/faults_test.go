package node

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// A node answering 500 for a while is retried: the milestone comes back whole.
func TestRetriesServerErrors(t *testing.T) {
	n, set := fakeNode(t)
	s := newSource(t, n)
	n.FailNext(2, "/api/core/v2/blocks/")
	checkServed(t, s, set, 17339)
}

// A node that keeps failing is reported unavailable (the indexer pauses and retries),
// not refused.
func TestUnavailableAfterAttempts(t *testing.T) {
	n, _ := fakeNode(t)
	s := newSource(t, n)
	if _, err := s.Network(ctxT(t)); err != nil { // read at start, before the node fails
		t.Fatal(err)
	}
	n.FailNext(1000, "")
	_, err := s.Milestone(ctxT(t), 17339)
	if err == nil || errors.As(err, new(*source.Refusal)) || !errors.Is(err, errUnavailable) {
		t.Fatalf("err = %v, want unavailable", err)
	}
	if got := n.Count(nodetest.RouteMilestoneByIndex); got != 3 {
		t.Fatalf("%d attempts, want 3", got)
	}
}

// A node that dies mid-milestone (connections reset) is unavailable; revived, it serves
// the milestone whole.
func TestNodeDiesMidMilestone(t *testing.T) {
	n, set := fakeNode(t)
	s := newSource(t, n, func(c *Config) { c.Attempts = 1 })
	n.DieAfter(10)
	if _, err := s.Milestone(ctxT(t), 17340); !errors.Is(err, errUnavailable) {
		t.Fatalf("err = %v, want unavailable", err)
	}
	n.Revive()
	checkServed(t, s, set, 17340)
}

// Bytes that do not hash to the block's ID are refused, naming the block.
func TestRefusesBlockWithWrongBytes(t *testing.T) {
	n, set := fakeNode(t)
	s := newSource(t, n)
	bad := set.Milestones[17339].Cone[5].ID
	n.CorruptBlock(bad, true)
	_, err := s.Milestone(ctxT(t), 17339)
	if !errors.As(err, new(*source.Refusal)) || !strings.Contains(err.Error(), chain.MessageID(bad).String()) ||
		!strings.Contains(err.Error(), "the bytes hash to") {
		t.Fatalf("err = %v, want a refusal naming %x", err, bad)
	}
}

// 4xx answers are refused with the route: a pruned milestone, a missing token.
func TestRefusesClientErrors(t *testing.T) {
	n, _ := fakeNode(t)
	s := newSource(t, n)
	_, err := s.Milestone(ctxT(t), 17338)
	if !errors.As(err, new(*source.Refusal)) || !strings.Contains(err.Error(), "/milestones/by-index/17338") ||
		!strings.Contains(err.Error(), "404") {
		t.Fatalf("err = %v, want a 404 refusal naming the route", err)
	}
	n.SetToken("secret-jwt")
	if _, err := s.Latest(ctxT(t)); !errors.As(err, new(*source.Refusal)) || !strings.Contains(err.Error(), "401") {
		t.Fatalf("err = %v, want 401 refusal", err)
	}
	authed := newSource(t, n, func(c *Config) { c.Token = "secret-jwt" })
	if tip, err := authed.Latest(ctxT(t)); err != nil || tip != 17340 {
		t.Fatalf("with the token: %d, %v", tip, err)
	}
}

// utxoProxy serves n, but the utxo-changes whose path ends with suffix are changed by
// edit; closed when the test ends.
func utxoProxy(t *testing.T, n http.Handler, suffix string, edit func(*tip25.UTXOChangesJSON)) *httptest.Server {
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, suffix) {
			n.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		n.ServeHTTP(rec, r)
		var changes tip25.UTXOChangesJSON
		_ = json.Unmarshal(rec.Body.Bytes(), &changes)
		edit(&changes)
		_ = json.NewEncoder(w).Encode(changes)
	}))
	t.Cleanup(proxy.Close)
	return proxy
}

// utxo-changes that differ from what the cone's included transactions did are refused.
func TestRefusesUTXOChangesThatDisagree(t *testing.T) {
	n, _ := fakeNode(t)
	proxy := utxoProxy(t, n, "/utxo-changes", func(changes *tip25.UTXOChangesJSON) {
		changes.CreatedOutputs = changes.CreatedOutputs[1:]
	})
	s, err := New(Config{URL: proxy.URL, Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Milestone(ctxT(t), 17339)
	if !errors.As(err, new(*source.Refusal)) || !strings.Contains(err.Error(), "createdOutputs") ||
		!strings.Contains(err.Error(), "is missing") {
		t.Fatalf("err = %v, want a refusal of createdOutputs", err)
	}
}

// A network without built-in keys needs them configured; configured keys win.
func TestNetworkKeys(t *testing.T) {
	n, _ := fakeNode(t)
	keys := chain.MilestoneKeys{Threshold: 1, Ranges: chain.Shimmer().Keys.Ranges[:1]}
	s := newSource(t, n, func(c *Config) { c.Keys = &keys })
	net, err := s.Network(ctxT(t))
	if err != nil || net.Keys.Threshold != 1 || len(net.Keys.Ranges) != 1 {
		t.Fatalf("network %+v, %v", net.Keys, err)
	}
	if _, err := New(Config{URL: "ftp://x"}); err == nil {
		t.Fatal("ftp URL accepted")
	}
}
