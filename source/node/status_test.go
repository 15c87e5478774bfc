package node

import (
	"math"
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
	liar := nodetest.ClaimingConfirmed(t, liarNode, math.MaxUint32-1)
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

func estimates(ums []chain.UnreferencedMessage) []uint32 {
	out := make([]uint32, len(ums))
	for i, um := range ums {
		out[i] = um.EstMilestoneIndex
	}
	return out
}
