package api

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/explorer"
)

// testExplorerMilestonesByTime: over the simulated chain's milestones (6 hours apart),
// for bounds on, just before and just after some milestones' timestamps, both sorts and
// several page sizes, the list is the chain's milestones within the bounds (both
// inclusive) in the sort order, each page no longer than asked, following Chronicle's
// cursors.
func testExplorerMilestonesByTime(t *testing.T, e *env, _ *explorerWant) {
	ms := e.truth.Milestones
	bounds := []int64{-1} // no bound
	for _, i := range []int{0, 1, len(ms) / 3, len(ms) / 2, len(ms) - 2, len(ms) - 1} {
		ts := ms[i].Timestamp.Unix()
		bounds = append(bounds, ts-1, ts, ts+1)
	}
	checked := 0
	for si, start := range bounds {
		for ei, end := range bounds {
			if start >= 0 && end >= 0 && end < start || (si+ei)%3 != 0 && si != 0 && ei != 0 {
				continue
			}
			var want []string
			for _, m := range ms {
				if ts := m.Timestamp.Unix(); (start < 0 || ts >= start) && (end < 0 || ts <= end) {
					want = append(want, fmt.Sprintf("%d %s %d", m.Index, m.MilestoneID, m.Timestamp.Unix()))
				}
			}
			for _, sort := range []string{"newest", "oldest"} {
				w := slices.Clone(want)
				if sort == "newest" {
					slices.Reverse(w)
				}
				size := 1 + (si+ei)%7
				q := milestoneListQuery(start, end, sort)
				got := milestoneListPages(t, e, q, size)
				if !slices.Equal(got, w) {
					t.Errorf("milestones%s pageSize %d:\n got %v\nwant %v", q, size, got, w)
				}
				checked += len(w)
			}
		}
	}
	if checked < len(ms) {
		t.Fatalf("only %d milestones listed over every bound", checked)
	}
}

func milestoneListQuery(start, end int64, sort string) string {
	q := "?sort=" + sort
	if start >= 0 {
		q += fmt.Sprint("&startTimestamp=", start)
	}
	if end >= 0 {
		q += fmt.Sprint("&endTimestamp=", end)
	}
	return q
}

// milestoneListPages pages /milestones: "index milestoneId timestamp" per item; every
// page holds at most size items and its cursor names size.
func milestoneListPages(t *testing.T, e *env, q string, size int) []string {
	t.Helper()
	var got []string
	for _, p := range getPages(t, e, explorerPath+"/milestones"+q, size, func(p *explorer.MilestonesJSON) string { return p.Cursor }) {
		if len(p.Items) > size || p.Cursor != "" && !strings.HasSuffix(p.Cursor, fmt.Sprint(".", size)) {
			t.Errorf("%s: a page of %d items (pageSize %d), cursor %q", q, len(p.Items), size, p.Cursor)
		}
		for _, m := range p.Items {
			got = append(got, fmt.Sprintf("%d %s %d", m.Index, m.MilestoneID, m.Timestamp))
		}
	}
	return got
}
