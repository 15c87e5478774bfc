package api

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

// explorerOptions: a milestone every 6h, so the 40 milestones span ten days and the
// unspent set at the newest holds expired and running expirations (1-30 days) and
// passed and running timelocks (1h-7d) next to storage deposit returns.
var explorerOptions = sim.Options{Seed: 11, MessagesPerMilestone: 20, AddressPool: 30, TagPool: 4,
	LegacyGenesisOutputs: 10, MilestoneInterval: 6 * time.Hour}

const explorer = "/api/explorer/v2"

// TestExplorer checks the explorer routes against the model computed from sim.Truth,
// on one keyspace; the ledger analytics run last (they write rows).
func TestExplorer(t *testing.T) {
	if testing.Short() {
		t.Skip("needs a Cassandra node (-short)")
	}
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
		{"milestone_blocks", testExplorerBlocks},
		{"milestone_ledger_updates", testExplorerMilestoneUpdates},
		{"bad_parameters", testExplorerBadParams},
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
		var got balanceJSON
		e.mustGet(t, explorer+"/balance/"+a, &got)
		want := w.balances[a]
		if want == nil {
			want = &balanceWant{}
		}
		exp := balanceJSON{TotalBalance: u64(want.total), AvailableBalance: u64(want.available),
			SigLockedBalance: u64(want.sigLocked), LedgerIndex: last.Index, MilestoneTimestamp: last.Timestamp.Unix()}
		if got != exp {
			t.Errorf("balance %s:\n got %+v\nwant %+v", a, got, exp)
		}
	}
	t.Logf("%d balances checked", len(addrs))
}

// getPages reads every page of path (which has a query) with pageSize; it fails on a
// repeated cursor or more pages than items could need.
func getPages[P any](t *testing.T, e *env, path string, pageSize int, cursorOf func(*P) string) []P {
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
	for _, p := range getPages(t, e, path, pageSize, func(p *historyJSON) string { return p.Cursor }) {
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
			path := explorer + "/addresses/" + a + "/history?sort=" + sort
			if n%2 == 1 {
				path = explorer + "/ledger/updates/by-address/" + a + "?sort=" + sort
			}
			equalUpdates(t, fmt.Sprintf("%s sort=%s pageSize=%d", a, sort, size), historyItems(t, e, path, size), want)
			n++
		}
	}
	// Default sort is newest; an address without updates has an empty feed.
	for a, us := range w.updates {
		equalUpdates(t, a+" default sort", historyItems(t, e, explorer+"/addresses/"+a+"/history?", 50),
			sortedUpdates(us, false))
		break
	}
	var empty historyJSON
	e.mustGet(t, explorer+"/addresses/"+chain.Address{}.Bech32(sim.HRP)+"/history", &empty)
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
			base := explorer + "/addresses/" + a + "/history?sort=" + sort
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

// testExplorerBlocks: each milestone's blocks, by index and by ID, are Truth's cone in
// white-flag order (sort=newest: reversed), with the payload type of each message.
func testExplorerBlocks(t *testing.T, e *env, _ *explorerWant) {
	for i, m := range e.truth.Milestones {
		var want []blockJSON
		for wf, id := range m.Messages {
			b := blockJSON{BlockID: id.String(), WhiteFlagIndex: int32(wf)}
			if pt, ok := payloadTypeOf(e.truth.Messages[id].Message); ok {
				b.PayloadType = &pt
			}
			want = append(want, b)
		}
		path := fmt.Sprintf("%s/milestones/by-index/%d/blocks?sort=oldest", explorer, m.Index)
		if i%3 == 1 {
			path = fmt.Sprintf("%s/milestones/%s/blocks?", explorer, m.MilestoneID)
		}
		equalBlocks(t, path, blockPages(t, e, path, 1+i%7), want)
		if i%5 == 0 {
			newest := fmt.Sprintf("%s/milestones/by-index/%d/blocks?sort=newest", explorer, m.Index)
			slices.Reverse(want)
			equalBlocks(t, newest, blockPages(t, e, newest, 4), want)
		}
	}
	if code, _ := e.fetch(t, fmt.Sprintf("%s/milestones/by-index/%d/blocks", explorer, chainLength+5)); code != http.StatusNotFound {
		t.Errorf("blocks of a milestone not indexed: %d, want 404", code)
	}
	unknown := explorer + "/milestones/0x" + strings.Repeat("ab", 32) + "/blocks"
	if code, _ := e.fetch(t, unknown); code != http.StatusNotFound {
		t.Errorf("blocks of an unknown milestone ID: %d, want 404", code)
	}
}

func payloadTypeOf(m *chain.Message) (uint32, bool) {
	switch m.Payload.(type) {
	case *chain.TaggedData:
		return 5, true
	case *chain.Transaction:
		return 6, true
	case *chain.MilestonePayload:
		return 7, true
	}
	return 0, false
}

func blockPages(t *testing.T, e *env, path string, size int) []blockJSON {
	var out []blockJSON
	for _, p := range getPages(t, e, path, size, func(p *milestoneBlocksJSON) string { return p.Cursor }) {
		out = append(out, p.Blocks...)
	}
	return out
}

func equalBlocks(t *testing.T, what string, got, want []blockJSON) {
	t.Helper()
	show := func(bs []blockJSON) string {
		var parts []string
		for _, b := range bs {
			pt := "null"
			if b.PayloadType != nil {
				pt = fmt.Sprint(*b.PayloadType)
			}
			parts = append(parts, fmt.Sprintf("%d:%s:%s", b.WhiteFlagIndex, b.BlockID[:10], pt))
		}
		return strings.Join(parts, " ")
	}
	if show(got) != show(want) {
		t.Errorf("%s:\n got %s\nwant %s", what, show(got), show(want))
	}
}

// testExplorerMilestoneUpdates: each milestone's ledger updates, by index and by ID, are
// the outputs Truth says it created (first, by ID) and consumed.
func testExplorerMilestoneUpdates(t *testing.T, e *env, _ *explorerWant) {
	created, consumed := map[uint32][]string{}, map[uint32][]string{}
	for id, ot := range e.truth.Outputs {
		if ot.Output.Kind == chain.OutputLegacy {
			continue
		}
		created[ot.MilestoneIndex] = append(created[ot.MilestoneIndex], id.String())
		if ot.Spent {
			consumed[ot.SpentMilestone] = append(consumed[ot.SpentMilestone], id.String())
		}
	}
	total := 0
	for i, m := range e.truth.Milestones {
		var want []string
		for _, id := range slices.Sorted(slices.Values(created[m.Index])) {
			want = append(want, "created "+id)
		}
		for _, id := range slices.Sorted(slices.Values(consumed[m.Index])) {
			want = append(want, "spent "+id)
		}
		path := fmt.Sprintf("%s/milestones/by-index/%d/ledger-updates?", explorer, m.Index)
		if i%2 == 1 {
			path = fmt.Sprintf("%s/ledger/updates/by-milestone/%s?", explorer, m.MilestoneID)
		}
		var got []string
		for _, p := range getPages(t, e, path, 1+i%5, func(p *milestoneUpdatesJSON) string { return p.Cursor }) {
			if p.MilestoneIndex != m.Index {
				t.Fatalf("%s: milestoneIndex %d", path, p.MilestoneIndex)
			}
			for _, it := range p.Items {
				got = append(got, map[bool]string{false: "created ", true: "spent "}[it.IsSpent]+it.OutputID)
				ot := e.truth.Outputs[mustOutputID(t, it.OutputID)]
				if ot == nil || it.Amount != u64(ot.Output.Amount) || it.Kind != ot.Output.Kind.String() ||
					(ot.Output.Kind != chain.OutputAlias && it.Address != addrText(ot.Output.Address)) {
					t.Errorf("%s: item %+v does not match its output", path, it)
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s:\n got %v\nwant %v", path, got, want)
		}
		total += len(want)
	}
	t.Logf("%d ledger updates over %d milestones", total, len(e.truth.Milestones))
}

func mustOutputID(t *testing.T, s string) chain.OutputID {
	id, err := chain.ParseOutputID(s)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// testExplorerBadParams: malformed parameters are 400 naming the parameter.
func testExplorerBadParams(t *testing.T, e *env, _ *explorerWant) {
	addr := chain.Address{}.Bech32(sim.HRP)
	hist := explorer + "/addresses/" + addr + "/history"
	for path, name := range map[string]string{
		explorer + "/balance/nonsense":                                     "address",
		hist + "?sort=sideways":                                            "sort",
		hist + "?pageSize=0":                                               "pageSize",
		hist + "?pageSize=1001":                                            "pageSize",
		hist + "?cursor=zzz":                                               "cursor",
		hist + "?startMilestoneIndex=9&endMilestoneIndex=3":                "endMilestoneIndex",
		hist + "?startMilestoneIndex=-1":                                   "startMilestoneIndex",
		hist + "?startTimestamp=2000&endTimestamp=1000":                    "endTimestamp",
		hist + "?endTimestamp=yesterday":                                   "endTimestamp",
		hist + "?page_size=5":                                              `"page_size"`,
		explorer + "/milestones/by-index/x/blocks":                         "index",
		explorer + "/milestones/0x12/blocks":                               "milestoneId",
		explorer + "/milestones/by-index/3/blocks?sort=up":                 "sort",
		explorer + "/milestones/by-index/3/ledger-updates?pageSize=x":      "pageSize",
		explorer + "/ledger/updates/by-milestone/nope":                     "milestoneId",
		explorer + "/ledger/richest-addresses?top=0":                       "top",
		explorer + "/ledger/richest-addresses?top=1001":                    "top",
		explorer + "/ledger/token-distribution?ledgerIndex=x":              "ledgerIndex",
		explorer + "/ledger/updates/by-address/" + addr + "?sort=sideways": "sort",
	} {
		code, body := e.fetch(t, path)
		if code != http.StatusBadRequest || !strings.Contains(string(body), `"detail":"`+strings.ReplaceAll(name, `"`, `\"`)+":") {
			t.Errorf("GET %s: %d %s, want 400 naming %s", path, code, body, name)
		}
	}
	// A cursor of one list is refused by another.
	var p historyJSON
	e.mustGet(t, hist+"?pageSize=1", &p)
	for a := range newExplorerWant(e.truth).updates {
		var q historyJSON
		e.mustGet(t, explorer+"/addresses/"+a+"/history?pageSize=1", &q)
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
		code, body := e.fetch(t, explorer+path)
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
	for _, top := range []int{1, 10, 1000} {
		var got richestJSON
		e.mustGet(t, fmt.Sprintf("%s/ledger/richest-addresses?top=%d", explorer, top), &got)
		if got.LedgerIndex != last.Index || got.MilestoneTimestamp != last.Timestamp.Unix() {
			t.Errorf("richest: ledger index %d at %d, want %d at %d", got.LedgerIndex, got.MilestoneTimestamp,
				last.Index, last.Timestamp.Unix())
		}
		want := ranked[:min(top, len(ranked))]
		if len(got.Top) != len(want) {
			t.Fatalf("top=%d: %d addresses, want %d", top, len(got.Top), len(want))
		}
		for i := range want {
			if got.Top[i].Address != want[i].addr || got.Top[i].Balance != u64(want[i].bal) {
				t.Errorf("top=%d rank %d: %+v, want %s %d", top, i+1, got.Top[i], want[i].addr, want[i].bal)
			}
		}
	}
	byMag := map[uint64]*distributionStatJSON{}
	var counts = map[uint64][2]uint64{}
	for _, b := range w.balances {
		start := uint64(1)
		for start*10 <= b.total {
			start *= 10
		}
		c := counts[start]
		counts[start] = [2]uint64{c[0] + 1, c[1] + b.total}
	}
	var got distributionJSON
	e.mustGet(t, explorer+"/ledger/token-distribution", &got)
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
		if d := byMag[start]; d == nil || d.AddressCount != u64(c[0]) || d.TotalBalance != u64(c[1]) {
			t.Errorf("decade from %d: %+v, want %d addresses, %d tokens", start, d, c[0], c[1])
		}
	}
	// An index never computed is 404; the computed one by number is the same answer.
	if code, _ := e.fetch(t, explorer+"/ledger/token-distribution?ledgerIndex=3"); code != http.StatusNotFound {
		t.Errorf("distribution at an index never computed: %d, want 404", code)
	}
	var again richestJSON
	e.mustGet(t, fmt.Sprintf("%s/ledger/richest-addresses?top=3&ledgerIndex=%d", explorer, last.Index), &again)
	if len(again.Top) != min(3, len(ranked)) || again.Top[0].Address != ranked[0].addr {
		t.Errorf("richest at ledgerIndex %d: %+v", last.Index, again)
	}
}
