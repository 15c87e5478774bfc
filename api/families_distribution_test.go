package api

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/analytics"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// checkDistributionDaily: the token distribution over time is, for each date the daily
// job computed (its date_cache row), the address_balance figures of the date's last
// milestone, newest first; a date not computed, or whose last milestone the fold has
// not reached, is left out; a granularity other than day is a 400.
func checkDistributionDaily(t *testing.T, e *env) {
	ctx := context.Background()
	days := map[string]store.Range{"2022-10-01": {From: 1, To: 10}, "2022-10-02": {From: 11, To: 20},
		"2022-10-04": {From: 21, To: famFolded + 3}} // past the fold: no row yet
	for d, ms := range days {
		if err := e.st.WriteDateCache(ctx, date(t, d), ms); err != nil {
			t.Fatal(err)
		}
	}
	spec := analytics.Families[slices.IndexFunc(analytics.Families, func(f analytics.FamilySpec) bool {
		return f.Name == "address_balance"
	})]
	var got struct {
		Family   string `json:"family"`
		Coverage string `json:"coverage"`
		Points   []struct {
			Date           string         `json:"date"`
			MilestoneIndex uint32         `json:"milestoneIndex"`
			Figures        map[string]any `json:"figures"`
		} `json:"points"`
	}
	path := analytics.FamiliesPrefix + "/token-distribution?from=2022-09-30&to=2022-10-05&granularity=day"
	if code := e.getNumbers(t, path, &got); code != http.StatusOK || got.Family != "address_balance" || len(got.Points) != 2 {
		t.Fatalf("GET %s: %d %+v, want the address_balance of two dates", path, code, got)
	}
	for i, want := range []struct {
		date  string
		index uint32
	}{{"2022-10-02", 20}, {"2022-10-01", 10}} {
		p := got.Points[i]
		if p.Date != want.date || p.MilestoneIndex != want.index {
			t.Errorf("GET %s: point %d is %s at %d, want %s at %d", path, i, p.Date, p.MilestoneIndex, want.date, want.index)
		}
		checkFigures(t, path+" "+p.Date, p.Figures, famFigures(spec, want.index))
	}
	bad := analytics.FamiliesPrefix + "/token-distribution?granularity=milestone"
	if code := e.get(t, bad, nil); code != http.StatusBadRequest {
		t.Errorf("GET %s: %d, want 400", bad, code)
	}
}
