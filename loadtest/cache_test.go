package loadtest

import (
	"bytes"
	"context"
	"fmt"
	"testing"
)

// TestCacheRun: over a sim chain, lookups of referenced messages and milestones answer
// immutable, lists do not, and every replay with the answer's ETag answers 304.
func TestCacheRun(t *testing.T) {
	base := serveChain(t, 20, defaultLimits)
	rep, err := RunCache(context.Background(), CacheConfig{BaseURL: base, Rounds: 300, Seed: 3, MaxMessages: 50,
		DistinctClients: true})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	rep.WriteText(&b)
	t.Log("\n" + b.String())
	share := rep.ImmutableShare()
	if share <= 0 || share >= 1 || rep.Total.FiveXX > 0 || rep.Total.Limited > 0 {
		t.Errorf("immutable share %.2f, 5xx %d, 429 %d; want some immutable answers and some not, no 5xx or 429",
			share, rep.Total.FiveXX, rep.Total.Limited)
	}
	// The newest milestone moves until the next one names its message: its answers alone
	// may come without immutable.
	newest := fmt.Sprintf("%s/milestones/%d", base, rep.IDs.Newest)
	for _, s := range rep.Routes {
		immutable := s.Requests > 0 && s.Immutable == s.Requests
		if s.Route == "/milestones/{index}" {
			immutable = s.Requests > 0 && s.Immutable == s.Requests-s.Moving[newest]
		}
		switch {
		case s.Route == "/milestones/{index}" && !immutable, s.Route == "/messages/{id}/raw" && !immutable,
			s.Route == "/outputs" && s.Immutable > 0, s.Route == "/sync" && s.Immutable > 0:
			t.Errorf("%s: %d of %d answers immutable", s.Route, s.Immutable, s.Requests)
		}
		if s.NotModified != s.Replays {
			t.Errorf("%s: %d of %d replays with If-None-Match answered 304", s.Route, s.NotModified, s.Replays)
		}
	}
	if rep.Total.P50OK <= 0 || rep.Total.P50Revalid <= 0 {
		t.Errorf("p50 200 %s, p50 304 %s; want both measured", rep.Total.P50OK, rep.Total.P50Revalid)
	}
}
