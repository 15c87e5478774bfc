package node

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
)

// A node reporting confirmed milestone 4294967294 among honest nodes never becomes the
// tip: it cannot serve that milestone, so it is benched and the next highest report,
// which an honest node serves and whose signatures pass, is the tip.
func TestLyingConfirmedIndexIsNotTheTip(t *testing.T) {
	honest, _ := fakeNode(t)
	if err := honest.SetConfirmed(17339); err != nil {
		t.Fatal(err)
	}
	liarNode, _ := fakeNode(t)
	liar := claimingConfirmed(t, liarNode, math.MaxUint32-1)
	s := newSource(t, honest, func(c *Config) { c.URL, c.URLs = "", []string{liar, honest.URL()} })
	ctx := ctxT(t)
	for range 3 {
		tip, err := s.Latest(ctx)
		if err != nil || tip != 17339 {
			t.Fatalf("Latest = %d, %v; want the honest 17339", tip, err)
		}
	}
	if got := testutil.ToFloat64(s.metrics.benches.WithLabelValues(hostOf(liar))); got < 1 {
		t.Fatalf("the lying node was benched %v times", got)
	}
	if next := nextIndex(s.events.tip.Load()); next != 17340 {
		t.Fatalf("pending blocks would be estimated for %d; want 17340", next)
	}
}

// A report at or below the highest milestone verified is believed without a request;
// the next higher one costs one milestone payload.
func TestLatestVerifiesEachNewTipOnce(t *testing.T) {
	n, _ := fakeNode(t)
	if err := n.SetConfirmed(17339); err != nil {
		t.Fatal(err)
	}
	s := newSource(t, n)
	ctx := ctxT(t)
	n.ResetCounts()
	for range 3 {
		if tip, err := s.Latest(ctx); err != nil || tip != 17339 {
			t.Fatalf("Latest = %d, %v", tip, err)
		}
	}
	if got := milestoneRequests(n); got != 1 {
		t.Fatalf("%d milestone requests for one tip read three times; want 1", got)
	}
	if err := n.SetConfirmed(17340); err != nil {
		t.Fatal(err)
	}
	if tip, err := s.Latest(ctx); err != nil || tip != 17340 {
		t.Fatalf("Latest = %d, %v; want 17340", tip, err)
	}
	if got := milestoneRequests(n); got != 2 {
		t.Fatalf("%d milestone requests after a new tip; want 2", got)
	}
}

func milestoneRequests(n *nodetest.Server) int { return n.Count(nodetest.RouteMilestoneByIndex) }

// The estimate of a pending block never wraps past the last milestone index.
func TestPendingEstimateDoesNotWrap(t *testing.T) {
	set, err := realdata.Load()
	if err != nil {
		t.Fatal(err)
	}
	h := newEventHub()
	h.knowNetwork(chain.Shimmer())
	h.sawTip(math.MaxUint32)
	if err := h.handle(topicBlocks, txBlock(t, set), time.Now(), true); err != nil {
		t.Fatal(err)
	}
	if got := h.pending.list(); len(got) != 1 || got[0].EstMilestoneIndex != math.MaxUint32 {
		t.Fatalf("%d pending after tip %d (estimate %v); want one estimated for that index", len(got),
			uint32(math.MaxUint32), estimates(got))
	}
}

// claimingConfirmed is n behind a proxy whose /info reports confirmed (and latest)
// milestone index; everything else is n's.
func claimingConfirmed(t *testing.T, n *nodetest.Server, index uint32) string {
	t.Helper()
	target, err := url.Parse(n.URL())
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(r *http.Response) error {
		if !strings.HasSuffix(r.Request.URL.Path, "/info") {
			return nil
		}
		var info map[string]any
		body, err := io.ReadAll(r.Body)
		if err == nil {
			err = json.Unmarshal(body, &info)
		}
		if err != nil {
			return err
		}
		status := info["status"].(map[string]any)
		for _, k := range []string{"confirmedMilestone", "latestMilestone"} {
			status[k].(map[string]any)["index"] = index
			status[k].(map[string]any)["timestamp"] = time.Now().Unix()
		}
		body, err = json.Marshal(info)
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		r.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return err
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	return srv.URL
}

func estimates(ums []chain.UnreferencedMessage) []uint32 {
	out := make([]uint32, len(ums))
	for i, um := range ums {
		out[i] = um.EstMilestoneIndex
	}
	return out
}
