package api

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/api/explorer"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

// testExplorerBadParams: malformed parameters are 400 naming the parameter.
func testExplorerBadParams(t *testing.T, e *env, _ *explorerWant) {
	addr := chain.Address{}.Bech32(sim.HRP)
	hist := explorerPath + "/addresses/" + addr + "/history"
	wantBadParams(t, e, map[string]string{
		explorerPath + "/balance/nonsense":                                     "address",
		hist + "?sort=sideways":                                                "sort",
		hist + "?pageSize=0":                                                   "pageSize",
		hist + "?cursor=zzz":                                                   "cursor",
		hist + "?startMilestoneIndex=9&endMilestoneIndex=3":                    "endMilestoneIndex",
		hist + "?startMilestoneIndex=-1":                                       "startMilestoneIndex",
		hist + "?startTimestamp=2000&endTimestamp=1000":                        "endTimestamp",
		hist + "?endTimestamp=yesterday":                                       "endTimestamp",
		hist + "?page_size=5":                                                  `"page_size"`,
		explorerPath + "/milestones/by-index/x/blocks":                         "index",
		explorerPath + "/milestones/0x12/blocks":                               "milestoneId",
		explorerPath + "/milestones/by-index/3/blocks?sort=up":                 "sort",
		explorerPath + "/milestones/by-index/3/ledger-updates?pageSize=x":      "pageSize",
		explorerPath + "/ledger/updates/by-milestone/nope":                     "milestoneId",
		explorerPath + "/ledger/richest-addresses?top=0":                       "top",
		explorerPath + "/ledger/richest-addresses?top=ten":                     "top",
		explorerPath + "/ledger/token-distribution?ledgerIndex=x":              "ledgerIndex",
		explorerPath + "/ledger/updates/by-address/" + addr + "?sort=sideways": "sort",
	})
	// A cursor of one list is refused by another.
	var p explorer.HistoryJSON
	e.mustGet(t, hist+"?pageSize=1", &p)
	for a := range newExplorerWant(e.truth).updates {
		var q explorer.HistoryJSON
		e.mustGet(t, explorerPath+"/addresses/"+a+"/history?pageSize=1", &q)
		if q.Cursor == "" {
			continue
		}
		code, body := e.fetch(t, hist+"?cursor="+url.QueryEscape(q.Cursor))
		if code != http.StatusBadRequest || !strings.Contains(string(body), "cursor") {
			t.Errorf("another address's cursor: %d %s, want 400 naming cursor", code, body)
		}
		break
	}
}

// testExplorerLedgerAnalytics: before the worker ran, 404 saying so; after, the richest
// list and the distribution equal the model's balances.
func testExplorerLedgerAnalytics(t *testing.T, e *env, w *explorerWant) {
	for _, path := range []string{"/ledger/richest-addresses", "/ledger/token-distribution"} {
		code, body := e.fetch(t, explorerPath+path)
		if code != http.StatusNotFound || !strings.Contains(string(body), "not computed yet") {
			t.Errorf("%s before the first run: %d %s, want 404 saying so", path, code, body)
		}
	}
	sum, err := analytics.LedgerJob{Store: e.st, Owner: "test"}.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	last := e.truth.Milestones[len(e.truth.Milestones)-1]
	if sum.LedgerIndex != last.Index || sum.Addresses != len(w.balances) {
		t.Errorf("summary %+v: want ledger index %d and %d addresses", sum, last.Index, len(w.balances))
	}
	type rich struct {
		addr string
		bal  uint64
	}
	var ranked []rich
	for a, b := range w.balances {
		ranked = append(ranked, rich{a, b.total})
	}
	slices.SortFunc(ranked, func(x, y rich) int {
		if x.bal != y.bal {
			return map[bool]int{true: -1, false: 1}[x.bal > y.bal]
		}
		return strings.Compare(x.addr, y.addr)
	})
	for _, top := range []int{1, 10, 1000, 5000} { // 5000: clamped to 1000, as Chronicle
		var got explorer.RichestJSON
		e.mustGet(t, fmt.Sprintf("%s/ledger/richest-addresses?top=%d", explorerPath, top), &got)
		if got.MaxResults != min(top, analytics.LedgerTop) {
			t.Errorf("top=%d: maxResults %d, want %d", top, got.MaxResults, min(top, analytics.LedgerTop))
		}
		if got.LedgerIndex != last.Index || got.MilestoneTimestamp != last.Timestamp.Unix() {
			t.Errorf("richest: ledger index %d at %d, want %d at %d", got.LedgerIndex, got.MilestoneTimestamp,
				last.Index, last.Timestamp.Unix())
		}
		want := ranked[:min(top, len(ranked))]
		if len(got.Top) != len(want) {
			t.Fatalf("top=%d: %d addresses, want %d", top, len(got.Top), len(want))
		}
		for i := range want {
			if got.Top[i].Address != want[i].addr || got.Top[i].Balance != explorer.U64(want[i].bal) {
				t.Errorf("top=%d rank %d: %+v, want %s %d", top, i+1, got.Top[i], want[i].addr, want[i].bal)
			}
		}
	}
	byMag := map[uint64]*explorer.DistributionStatJSON{}
	var counts = map[uint64][2]uint64{}
	for _, b := range w.balances {
		start := uint64(1)
		for start*10 <= b.total {
			start *= 10
		}
		c := counts[start]
		counts[start] = [2]uint64{c[0] + 1, c[1] + b.total}
	}
	var got explorer.DistributionJSON
	e.mustGet(t, explorerPath+"/ledger/token-distribution", &got)
	for i := range got.Distribution {
		d := &got.Distribution[i]
		byMag[d.Range.Start] = d
		if d.Range.End != d.Range.Start*10 || i > 0 && got.Distribution[i-1].Range.Start >= d.Range.Start {
			t.Errorf("distribution range %+v out of order or not a decade", d.Range)
		}
	}
	if len(byMag) != len(counts) || got.LedgerIndex != last.Index {
		t.Errorf("distribution at %d: %d decades, want %d at %d", got.LedgerIndex, len(byMag), len(counts), last.Index)
	}
	for start, c := range counts {
		if d := byMag[start]; d == nil || d.AddressCount != explorer.U64(c[0]) || d.TotalBalance != explorer.U64(c[1]) {
			t.Errorf("decade from %d: %+v, want %d addresses, %d tokens", start, d, c[0], c[1])
		}
	}
	// An index never computed is computed on request; the computed one by number is the
	// same answer as without it.
	var early explorer.DistributionJSON
	if e.mustGet(t, explorerPath+"/ledger/token-distribution?ledgerIndex=3", &early); !early.OnRequest || early.LedgerIndex != 3 {
		t.Errorf("distribution at an index never computed: %+v, want computed on request at 3", early)
	}
	var again explorer.RichestJSON
	e.mustGet(t, fmt.Sprintf("%s/ledger/richest-addresses?top=3&ledgerIndex=%d", explorerPath, last.Index), &again)
	if len(again.Top) != min(3, len(ranked)) || again.Top[0].Address != ranked[0].addr {
		t.Errorf("richest at ledgerIndex %d: %+v", last.Index, again)
	}
}

// testExplorerLedgerAt: before the worker ever ran, the richest addresses and the token
// distribution asked at earlier ledger indexes are computed on request and equal the
// model's ledger replayed to each index (its balances at that milestone's time); above
// the ledger index it is a 400, and without ledgerIndex still a 404.
func testExplorerLedgerAt(t *testing.T, e *env, _ *explorerWant) {
	ms := e.truth.Milestones
	for _, m := range []sim.MilestoneTruth{ms[3], ms[len(ms)/2], ms[len(ms)-1]} {
		w := newExplorerWantAt(e.truth, m.Index)
		var rich explorer.RichestJSON
		e.mustGet(t, fmt.Sprintf("%s/ledger/richest-addresses?top=1000&ledgerIndex=%d", explorerPath, m.Index), &rich)
		want := rankedBalances(w)
		if !rich.OnRequest || rich.LedgerIndex != m.Index || rich.MilestoneTimestamp != m.Timestamp.Unix() ||
			len(rich.Top) != len(want) {
			t.Fatalf("richest at %d: %d addresses, on request %t, at %d (%d); want %d at %d (%d)", m.Index, len(rich.Top),
				rich.OnRequest, rich.LedgerIndex, rich.MilestoneTimestamp, len(want), m.Index, m.Timestamp.Unix())
		}
		for i := range want {
			if rich.Top[i].Address != want[i].addr || rich.Top[i].Balance != explorer.U64(want[i].bal) {
				t.Errorf("richest at %d rank %d: %+v, want %s %d", m.Index, i+1, rich.Top[i], want[i].addr, want[i].bal)
			}
		}
		var dist explorer.DistributionJSON
		e.mustGet(t, fmt.Sprintf("%s/ledger/token-distribution?ledgerIndex=%d", explorerPath, m.Index), &dist)
		checkDistribution(t, &dist, w)
	}
	if code, _ := e.fetch(t, explorerPath+"/ledger/richest-addresses"); code != http.StatusNotFound {
		t.Errorf("richest without ledgerIndex before the worker ran: %d, want 404", code)
	}
	e.wantAboveLedgerIndex(t, fmt.Sprintf("%s/ledger/token-distribution?ledgerIndex=%d", explorerPath, ms[len(ms)-1].Index+1))
}

type rich struct {
	addr string
	bal  uint64
}

// rankedBalances are the model's balances, richest first (ties by address).
func rankedBalances(w *explorerWant) []rich {
	var ranked []rich
	for a, b := range w.balances {
		if b.total > 0 {
			ranked = append(ranked, rich{a, b.total})
		}
	}
	slices.SortFunc(ranked, func(x, y rich) int {
		if x.bal != y.bal {
			return map[bool]int{true: -1, false: 1}[x.bal > y.bal]
		}
		return strings.Compare(x.addr, y.addr)
	})
	return ranked
}

// checkDistribution compares a token distribution with the model's balances by decade.
func checkDistribution(t *testing.T, got *explorer.DistributionJSON, w *explorerWant) {
	t.Helper()
	counts := map[uint64][2]uint64{}
	for _, b := range w.balances {
		if b.total == 0 {
			continue
		}
		start := uint64(1)
		for start*10 <= b.total {
			start *= 10
		}
		c := counts[start]
		counts[start] = [2]uint64{c[0] + 1, c[1] + b.total}
	}
	if len(got.Distribution) != len(counts) {
		t.Errorf("distribution at %d: %d decades, want %d", got.LedgerIndex, len(got.Distribution), len(counts))
	}
	for _, d := range got.Distribution {
		if c := counts[d.Range.Start]; d.AddressCount != explorer.U64(c[0]) || d.TotalBalance != explorer.U64(c[1]) {
			t.Errorf("distribution at %d, decade from %d: %+v, want %d addresses, %d tokens", got.LedgerIndex,
				d.Range.Start, d, c[0], c[1])
		}
	}
}
