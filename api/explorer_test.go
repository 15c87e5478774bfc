package api

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/explorer"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// explorerOptions: a milestone every 6h, so the 40 milestones span ten days and the
// unspent set at the newest holds expired and running expirations (1-30 days) and
// passed and running timelocks (1h-7d) next to storage deposit returns.
var explorerOptions = sim.Options{Seed: 11, MessagesPerMilestone: 20, AddressPool: 30, TagPool: 4,
	LegacyGenesisOutputs: 10, MilestoneInterval: 6 * time.Hour}

const explorerPath = "/api/explorer/v2"

// TestExplorer checks the explorer routes against the model computed from sim.Truth,
// on one keyspace; the ledger analytics run last (they write rows).
func TestExplorer(t *testing.T) {
	testcontainers.SkipShort(t)
	e := newEnv(t, explorerOptions, chainLength)
	w := newExplorerWant(e.truth)
	t.Logf("model: %d owners, %d addresses with updates; expired %d, expiring %d, locked %d, unlocked %d, SDR %d",
		len(w.balances), len(w.updates), w.expired, w.expiring, w.locked, w.unlocked, w.withSDR)
	if w.expired == 0 || w.expiring == 0 || w.locked == 0 || w.unlocked == 0 || w.withSDR == 0 {
		t.Fatal("the chain lacks a TIP-18 case the balance test needs: change explorerOptions")
	}
	tests := []struct {
		name string
		run  func(*testing.T, *env, *explorerWant)
	}{
		{"balance", testExplorerBalance},
		{"history", testExplorerHistory},
		{"history_bounds", testExplorerHistoryBounds},
		{"history_at", testExplorerHistoryAt},
		{"balance_history", testExplorerBalanceHistory},
		{"export", testExplorerExport},
		{"export_errors", testExplorerExportErrors},
		{"event_stream", testEventStream},
		{"event_stream_errors", testEventStreamErrors},
		{"milestone_blocks", testExplorerBlocks},
		{"milestone_ledger_updates", testExplorerMilestoneUpdates},
		{"milestones_by_time", testExplorerMilestonesByTime},
		{"bad_parameters", testExplorerBadParams},
		{"page_clamping", testExplorerPageClamping},
		{"ledger_at", testExplorerLedgerAt},               // before the worker ever ran
		{"ledger_analytics", testExplorerLedgerAnalytics}, // last: runs the worker
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, e, w) })
	}
}

// testExplorerBalance: every address the model knows (owners, and addresses that only
// send or return) has the model's balance; one never seen has zeros.
func testExplorerBalance(t *testing.T, e *env, w *explorerWant) {
	addrs := map[string]bool{chain.Address{}.Bech32(sim.HRP): true}
	for a := range w.balances {
		addrs[a] = true
	}
	for a := range w.updates {
		addrs[a] = true
	}
	last := e.truth.Milestones[len(e.truth.Milestones)-1]
	for a := range addrs {
		var got explorer.BalanceJSON
		e.mustGet(t, explorerPath+"/balance/"+a, &got)
		want := w.balances[a]
		if want == nil {
			want = &balanceWant{}
		}
		exp := explorer.BalanceJSON{TotalBalance: explorer.U64(want.total), AvailableBalance: explorer.U64(want.available),
			SigLockedBalance: explorer.U64(want.sigLocked), LedgerIndex: last.Index, MilestoneTimestamp: last.Timestamp.Unix(),
			WithCoverage: rest.WithCoverage{Coverage: rest.CoverageJSON{Status: rest.CoveragePartial, Since: 1, LedgerIndex: last.Index,
				Reason: store.NoBootstrapReason(1)}}}
		if got != exp {
			t.Errorf("balance %s:\n got %+v\nwant %+v", a, got, exp)
		}
	}
	t.Logf("%d balances checked", len(addrs))
	testExplorerBalanceAt(t, e, addrs)
}

// getPages reads every page of path (which has a query) with pageSize; it fails on a
// repeated cursor or more pages than items could need.
func getPages[P any](t testing.TB, e *env, path string, pageSize int, cursorOf func(*P) string) []P {
	t.Helper()
	var pages []P
	seen := map[string]bool{}
	next := ""
	for {
		u := fmt.Sprintf("%s&pageSize=%d", path, pageSize)
		if next != "" {
			u += "&cursor=" + url.QueryEscape(next)
		}
		var p P
		e.mustGet(t, u, &p)
		pages = append(pages, p)
		if next = cursorOf(&p); next == "" {
			return pages
		}
		if seen[next] || len(pages) > 10_000 {
			t.Fatalf("%s: cursor %s repeats (or endless pages)", path, next)
		}
		seen[next] = true
	}
}

func historyItems(t *testing.T, e *env, path string, pageSize int) []updateWant {
	t.Helper()
	var out []updateWant
	for _, p := range getPages(t, e, path, pageSize, func(p *explorer.HistoryJSON) string { return p.Cursor }) {
		for _, it := range p.Items {
			roles := slices.Sorted(slices.Values(it.Roles))
			out = append(out, updateWant{OutputID: it.OutputID, IsSpent: it.IsSpent, MilestoneIndex: it.MilestoneIndex,
				Timestamp: it.MilestoneTimestamp, Kind: it.Kind, Roles: roles, Amount: it.Amount})
		}
	}
	return out
}

func equalUpdates(t *testing.T, what string, got, want []updateWant) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d updates, want %d", what, len(got), len(want))
		return
	}
	for i := range want {
		if g, x := got[i], want[i]; g.OutputID != x.OutputID || g.IsSpent != x.IsSpent ||
			g.MilestoneIndex != x.MilestoneIndex || g.Timestamp != x.Timestamp || g.Kind != x.Kind ||
			!slices.Equal(g.Roles, x.Roles) || g.Amount != x.Amount {
			t.Errorf("%s: item %d is %+v, want %+v", what, i, g, x)
			return
		}
	}
}

// testExplorerHistory: every address's feed holds each of its updates exactly once, in
// order, over all pages, both sorts, under both paths, with several page sizes.
func testExplorerHistory(t *testing.T, e *env, w *explorerWant) {
	sizes := []int{1000, 7, 1}
	n := 0
	for a, us := range w.updates {
		for _, oldest := range []bool{false, true} {
			sort := map[bool]string{false: "newest", true: "oldest"}[oldest]
			want := sortedUpdates(us, oldest)
			size := sizes[n%len(sizes)]
			if size == 1 && len(us) > 60 {
				size = 3 // keeps the one-by-one walks to the smaller feeds
			}
			path := explorerPath + "/addresses/" + a + "/history?sort=" + sort
			if n%2 == 1 {
				path = explorerPath + "/ledger/updates/by-address/" + a + "?sort=" + sort
			}
			equalUpdates(t, fmt.Sprintf("%s sort=%s pageSize=%d", a, sort, size), historyItems(t, e, path, size), want)
			n++
		}
	}
	// Default sort is newest; an address without updates has an empty feed.
	for a, us := range w.updates {
		equalUpdates(t, a+" default sort", historyItems(t, e, explorerPath+"/addresses/"+a+"/history?", 50),
			sortedUpdates(us, false))
		break
	}
	var empty explorer.HistoryJSON
	e.mustGet(t, explorerPath+"/addresses/"+chain.Address{}.Bech32(sim.HRP)+"/history", &empty)
	if len(empty.Items) != 0 || empty.Cursor != "" {
		t.Errorf("unknown address: %+v, want no items", empty)
	}
}

// testExplorerHistoryBounds: milestone and time bounds keep exactly the model's updates
// within them, both sorts.
func testExplorerHistoryBounds(t *testing.T, e *env, w *explorerWant) {
	ms := e.truth.Milestones
	from, to := ms[9].Timestamp, ms[30].Timestamp // [from, to)
	checked := 0
	for a, us := range w.updates {
		if len(us) < 10 {
			continue
		}
		for _, oldest := range []bool{false, true} {
			sort := map[bool]string{false: "newest", true: "oldest"}[oldest]
			var byIndex, byTime []updateWant
			for _, u := range us {
				if u.MilestoneIndex >= 12 && u.MilestoneIndex <= 27 {
					byIndex = append(byIndex, u)
				}
				if u.Timestamp >= from.Unix() && u.Timestamp < to.Unix() {
					byTime = append(byTime, u)
				}
			}
			base := explorerPath + "/addresses/" + a + "/history?sort=" + sort
			equalUpdates(t, a+" milestones 12..27 "+sort,
				historyItems(t, e, base+"&startMilestoneIndex=12&endMilestoneIndex=27", 5), sortedUpdates(byIndex, oldest))
			equalUpdates(t, a+" time bounds "+sort, historyItems(t, e, fmt.Sprintf("%s&startTimestamp=%d&endTimestamp=%s",
				base, from.Unix(), url.QueryEscape(to.Format(time.RFC3339))), 4), sortedUpdates(byTime, oldest))
		}
		if checked++; checked == 6 {
			break
		}
	}
	if checked == 0 {
		t.Fatal("no address with 10 updates")
	}
}

// testExplorerHistoryAt: an address's ledger updates asked at an earlier ledger index are
// the model's updates up to it, on both paths and in both sorts, with the coverage there;
// past the ledger index it is a 400.
func testExplorerHistoryAt(t *testing.T, e *env, w *explorerWant) {
	last := e.truth.UpTo
	checked := 0
	for a, us := range w.updates {
		if len(us) < 6 {
			continue
		}
		for _, n := range []uint32{last / 3, 2 * last / 3} {
			var upTo []updateWant
			for _, u := range us {
				if u.MilestoneIndex <= n {
					upTo = append(upTo, u)
				}
			}
			for _, oldest := range []bool{false, true} {
				sort := map[bool]string{false: "newest", true: "oldest"}[oldest]
				for _, path := range []string{"/addresses/" + a + "/history", "/ledger/updates/by-address/" + a} {
					path = fmt.Sprintf("%s%s?sort=%s&ledgerIndex=%d", explorerPath, path, sort, n)
					equalUpdates(t, path, historyItems(t, e, path, 4), sortedUpdates(upTo, oldest))
					var first explorer.HistoryJSON
					if e.mustGet(t, path, &first); first.LedgerIndex != n {
						t.Errorf("GET %s: ledgerIndex %d, want %d", path, first.LedgerIndex, n)
					}
				}
			}
		}
		if checked++; checked == 4 {
			break
		}
	}
	if checked == 0 {
		t.Fatal("no address with 6 updates")
	}
	e.wantAboveLedgerIndex(t, fmt.Sprintf("%s/addresses/%s/history?ledgerIndex=%d", explorerPath,
		chain.Address{}.Bech32(sim.HRP), last+1))
}

// testExplorerBalanceAt: every address's balance asked at earlier ledger indexes (the
// first milestone, and indexes across the chain) is the model's replay of the chain up to
// that index, at that milestone's time; past the ledger index it is a 400.
func testExplorerBalanceAt(t *testing.T, e *env, addrs map[string]bool) {
	first, last := e.truth.Milestones[0], e.truth.Milestones[len(e.truth.Milestones)-1]
	for _, n := range []uint32{first.Index, (first.Index + last.Index) / 2, last.Index - 1, last.Index} {
		w := newExplorerWantAt(e.truth, n)
		for a := range addrs {
			var got explorer.BalanceJSON
			e.mustGet(t, fmt.Sprintf("%s/balance/%s?ledgerIndex=%d", explorerPath, a, n), &got)
			want := w.balances[a]
			if want == nil {
				want = &balanceWant{}
			}
			exp := explorer.BalanceJSON{TotalBalance: explorer.U64(want.total), AvailableBalance: explorer.U64(want.available),
				SigLockedBalance: explorer.U64(want.sigLocked), LedgerIndex: n, MilestoneTimestamp: w.ledgerTime,
				WithCoverage: rest.WithCoverage{Coverage: rest.CoverageJSON{Status: rest.CoveragePartial, Since: 1, LedgerIndex: last.Index,
					Reason: store.NoBootstrapReason(1)}}}
			if got != exp {
				t.Errorf("balance %s at %d:\n got %+v\nwant %+v", a, n, got, exp)
			}
		}
	}
	code, body := e.fetch(t, fmt.Sprintf("%s/balance/%s?ledgerIndex=%d", explorerPath, chain.Address{}.Bech32(sim.HRP), last.Index+1))
	if code != http.StatusBadRequest || !strings.Contains(string(body), "ledgerIndex") {
		t.Errorf("a balance past the ledger index: %d %s", code, body)
	}
}
