package api

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/api/tables"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// analyticsOptions is a chain of several dates: a milestone every 2h, so with 40
// milestones 2022-10-01..03 are whole dates (12 milestones each) and 2022-10-04 is
// partial (37-40).
var analyticsOptions = sim.Options{Seed: 5, MessagesPerMilestone: 10, AddressPool: 25, TagPool: 4,
	LegacyGenesisOutputs: 15, MilestoneInterval: 2 * time.Hour}

// TestAnalytics checks the analytics routes against figures computed from the
// simulator's ground truth, then the admin routes (which change the keyspace, so
// they come last), on one keyspace.
func TestAnalytics(t *testing.T) {
	testcontainers.SkipShort(t)
	e := newEnvWith(t, analyticsOptions, chainLength, true)
	w := e.analyticsTruth()
	if len(w.complete) < 2 {
		t.Fatalf("complete dates %v: the chain should span at least two", w.complete)
	}
	// Every complete date but the last is computed as the scheduler would; the admin
	// test computes the last.
	for _, d := range w.complete[:len(w.complete)-1] {
		job := analytics.Job{Store: e.st, Owner: "test"}
		if _, err := job.Run(context.Background(), mustDate(t, d), true); err != nil {
			t.Fatalf("daily job %s: %v", d, err)
		}
	}
	tests := []struct {
		name string
		run  func(*testing.T, *env, *analyticsWant)
	}{
		{"milestones", testAnalyticsMilestones},
		{"addresses", testAnalyticsAddresses},
		{"daily", testAnalyticsDaily},
		{"errors", testAnalyticsErrors},
		{"admin", testAdmin}, // last: writes and deletes rows
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, e, w) })
	}
}

// The expected side, computed here from sim.Truth in plain maps without package
// analytics (which works from the milestones' ledger-change lists): flows from the
// outputs' creation and spend records, transfers from each included transaction's
// inputs and outputs, dates from the milestones' timestamps.

type msFigures struct {
	messages, txs int
	transferred   uint64
}

type flowFigures struct{ sent, recv uint64 }

type dayFigures struct {
	first, last     uint32
	sent, recv, any map[string]bool
}

type analyticsWant struct {
	ms       map[uint32]msFigures
	flows    map[string]map[uint32]*flowFigures // address → milestone → flow
	days     map[string]*dayFigures             // YYYY-MM-DD → figures
	complete []string                           // dates with a milestone after them, oldest first
}

// ownerText restates the owner definition (docs/analytics.md): the address unlock
// condition; an alias's state controller; a foundry's immutable alias address.
func ownerText(o *chain.Output) string {
	if o.Kind == chain.OutputAlias {
		return o.StateController.Bech32(sim.HRP)
	}
	return o.Address.Bech32(sim.HRP)
}

func (e *env) analyticsTruth() *analyticsWant {
	w := &analyticsWant{ms: map[uint32]msFigures{}, flows: map[string]map[uint32]*flowFigures{},
		days: map[string]*dayFigures{}}
	flow := func(addr string, ms uint32) *flowFigures {
		if w.flows[addr] == nil {
			w.flows[addr] = map[uint32]*flowFigures{}
		}
		if w.flows[addr][ms] == nil {
			w.flows[addr][ms] = &flowFigures{}
		}
		return w.flows[addr][ms]
	}
	for _, ot := range e.truth.Outputs {
		flow(ownerText(&ot.Output), ot.MilestoneIndex).recv += ot.Output.Amount
		if ot.Spent {
			flow(ownerText(&ot.Output), ot.SpentMilestone).sent += ot.Output.Amount
		}
	}
	for _, mt := range e.truth.Milestones {
		row := msFigures{messages: len(mt.Messages)}
		for _, id := range mt.Messages {
			m := e.truth.Messages[id]
			tx := m.Message.TransactionOf()
			if tx == nil || m.InclusionState != chain.Included {
				continue
			}
			row.txs++
			from := map[string]bool{}
			for _, in := range tx.Inputs {
				from[ownerText(&e.truth.Outputs[in.OutputID()].Output)] = true
			}
			for j := range tx.Outputs {
				if !from[ownerText(&tx.Outputs[j])] {
					row.transferred += tx.Outputs[j].Amount
				}
			}
		}
		w.ms[mt.Index] = row
		d := mt.Timestamp.UTC().Format(rest.DateLayout)
		day := w.days[d]
		if day == nil {
			day = &dayFigures{first: mt.Index, sent: map[string]bool{}, recv: map[string]bool{}, any: map[string]bool{}}
			w.days[d] = day
		}
		day.last = mt.Index
		for addr, byMs := range w.flows {
			if f := byMs[mt.Index]; f != nil && f.sent+f.recv > 0 {
				day.any[addr] = true
				if f.sent > 0 {
					day.sent[addr] = true
				}
				if f.recv > 0 {
					day.recv[addr] = true
				}
			}
		}
	}
	last := e.truth.Milestones[len(e.truth.Milestones)-1].Timestamp.UTC().Format(rest.DateLayout)
	for _, d := range slices.Sorted(maps.Keys(w.days)) {
		if d < last {
			w.complete = append(w.complete, d)
		}
	}
	return w
}

func (w *analyticsWant) milestoneItems(start, end uint32) []tables.MilestoneStatJSON {
	out := []tables.MilestoneStatJSON{}
	for i := end; i >= start && i > 0; i-- {
		if m, ok := w.ms[i]; ok {
			out = append(out, tables.MilestoneStatJSON{MilestoneIndex: i, MessageCount: m.messages, TransactionCount: m.txs,
				TransferredTokens: fmt.Sprint(m.transferred)})
		}
	}
	return out
}

func (w *analyticsWant) addressItems(addr string, start, end uint32) []tables.AddressStatJSON {
	out := []tables.AddressStatJSON{}
	for _, i := range slices.Backward(slices.Sorted(maps.Keys(w.flows[addr]))) {
		if f := w.flows[addr][i]; i >= start && i <= end && f.sent+f.recv > 0 {
			out = append(out, tables.AddressStatJSON{MilestoneIndex: i, SentTokens: fmt.Sprint(f.sent),
				RecvTokens: fmt.Sprint(f.recv)})
		}
	}
	return out
}

func (w *analyticsWant) dailyItem(d string) tables.DailyStatJSON {
	day := w.days[d]
	return tables.DailyStatJSON{Date: d, TotalAddresses: len(day.any), SendAddresses: len(day.sent),
		RecvAddresses: len(day.recv)}
}

// busiestAddress is the address with rows in the most milestones.
func (w *analyticsWant) busiestAddress() string {
	best := ""
	for addr, byMs := range w.flows {
		if n, m := len(byMs), len(w.flows[best]); best == "" || n > m || n == m && addr < best {
			best = addr
		}
	}
	return best
}

func mustDate(t testing.TB, d string) time.Time {
	t.Helper()
	day, err := time.Parse(rest.DateLayout, d)
	if err != nil {
		t.Fatal(err)
	}
	return day
}

func checkItems[T comparable](t *testing.T, path string, got, want []T) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("GET %s: %d items, want %d:\ngot  %v\nwant %v", path, len(got), len(want), got, want)
	}
}

// testAnalyticsMilestones: every milestone's row, across partitions, newest first;
// milestones not indexed are left out.
func testAnalyticsMilestones(t *testing.T, e *env, w *analyticsWant) {
	transfers := 0
	for _, r := range [][2]uint32{{1, chainLength}, {15, 25}, {7, 7}, {0, 3}, {chainLength - 2, chainLength + 50},
		{chainLength + 1, chainLength + 9}, {4294967295 - 9999, 4294967295}} {
		path := fmt.Sprintf("/analytics/milestones?start=%d&end=%d", r[0], r[1])
		var got rest.Page[tables.MilestoneStatJSON]
		e.mustGet(t, path, &got)
		checkItems(t, path, got.Items, w.milestoneItems(r[0], r[1]))
		if got.Items == nil {
			t.Errorf("GET %s: items null, want []", path)
		}
		for _, it := range got.Items {
			if it.TransferredTokens != "0" {
				transfers++
			}
		}
	}
	if transfers == 0 {
		t.Error("no milestone transferred tokens: the check compared zeros")
	}
}

// testAnalyticsAddresses: the busiest address's rows, given as bech32 or 0x-hex, over
// the whole chain and a slice of it; an address that never moved tokens has none.
func testAnalyticsAddresses(t *testing.T, e *env, w *analyticsWant) {
	addr := w.busiestAddress()
	a, err := chain.ParseAddress(addr)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(w.flows[addr]); n < 3 {
		t.Fatalf("busiest address %s has rows in %d milestones only", addr, n)
	}
	for _, form := range []string{addr, a.Hex(), "0x" + strings.ToUpper(a.Hex()[2:])} {
		for _, r := range [][2]uint32{{1, chainLength}, {10, 30}, {1, 10000}} {
			path := fmt.Sprintf("/analytics/addresses/%s?start=%d&end=%d", form, r[0], r[1])
			var got rest.Page[tables.AddressStatJSON]
			e.mustGet(t, path, &got)
			checkItems(t, path, got.Items, w.addressItems(addr, r[0], r[1]))
		}
	}
	idle := chain.Address{}.Bech32(sim.HRP)
	path := "/analytics/addresses/" + idle + "?start=1&end=100"
	var got rest.Page[tables.AddressStatJSON]
	if e.mustGet(t, path, &got); got.Items == nil || len(got.Items) != 0 {
		t.Errorf("GET %s: %v, want []", path, got.Items)
	}
}

// testAnalyticsDaily: the computed dates (every complete one but the last, see
// TestAnalytics), newest first; the others are left out.
func testAnalyticsDaily(t *testing.T, e *env, w *analyticsWant) {
	computed := w.complete[:len(w.complete)-1]
	for _, r := range [][2]string{{"2022-09-01", "2022-12-31"}, {computed[0], computed[0]},
		{"2022-10-02", "2030-01-01"}, {"1970-01-01", "1970-01-01"}} {
		path := "/analytics/daily?from=" + r[0] + "&to=" + r[1]
		want := []tables.DailyStatJSON{}
		for _, d := range slices.Backward(computed) {
			if d >= r[0] && d <= r[1] {
				want = append(want, w.dailyItem(d))
			}
		}
		var got rest.Page[tables.DailyStatJSON]
		e.mustGet(t, path, &got)
		checkItems(t, path, got.Items, want)
	}
	var got rest.Page[tables.DailyStatJSON]
	e.mustGet(t, "/analytics/daily?from=2022-09-01&to=2022-12-31", &got)
	if len(got.Items) == 0 || got.Items[0].SendAddresses == 0 || got.Items[0].RecvAddresses == 0 {
		t.Errorf("daily rows %v: the check compared zeros", got.Items)
	}
}

func testAnalyticsErrors(t *testing.T, e *env, _ *analyticsWant) {
	addr := chain.Address{}.Bech32(sim.HRP)
	cases := []errorCase{
		{"GET", "/analytics/milestones", 400, "start"},
		{"GET", "/analytics/milestones?start=1", 400, "end"},
		{"GET", "/analytics/milestones?start=5&end=4", 400, "end"},
		{"GET", "/analytics/milestones?start=1&end=10001", 400, "end"},
		{"GET", "/analytics/milestones?start=0&end=4294967295", 400, "end"},
		{"GET", "/analytics/milestones?start=x&end=4", 400, "start"},
		{"GET", "/analytics/milestones?start=1&end=4&page_size=2", 400, "page_size"},
		{"GET", "/analytics/daily", 400, "from"},
		{"GET", "/analytics/daily?from=2022-10-01", 400, "to"},
		{"GET", "/analytics/daily?from=2022-10-02&to=2022-10-01", 400, "from"},
		{"GET", "/analytics/daily?from=2022-10-01&to=2032-12-31", 400, "to"},
		{"GET", "/analytics/daily?from=2022-10-01T00:00:00Z&to=2022-10-02", 400, "from"},
		{"GET", "/analytics/daily?from=2022-13-01&to=2022-10-02", 400, "from"},
		{"GET", "/analytics/daily?from=1969-12-31&to=1970-01-02", 400, "from"},
		{"GET", "/analytics/daily?from=2022-10-01&to=2022-10-02&year=2022", 400, "year"},
		{"GET", "/analytics/addresses/smr1qqq?start=1&end=2", 400, "address"},
		{"GET", "/analytics/addresses/" + addr + "?start=1", 400, "end"},
		{"GET", "/analytics/addresses/" + addr + "?start=3&end=2", 400, "end"},
		{"GET", "/analytics/addresses/" + addr + "?start=1&end=20000", 400, "end"},
		{"GET", "/analytics/addresses/" + addr + "/more?start=1&end=2", 404, "no route"},
		{"POST", "/analytics/milestones?start=1&end=2", 405, "read-only"},
		{"DELETE", "/analytics/daily?from=2022-10-01&to=2022-10-02", 405, "read-only"},
	}
	for _, c := range cases {
		checkError(t, e.srv.URL, c)
	}
	// The widest accepted ranges answer.
	for _, path := range []string{"/analytics/milestones?start=1&end=10000",
		"/analytics/daily?from=2013-01-01&to=2023-01-08", "/analytics/addresses/" + addr + "?start=1&end=10000"} {
		if code := e.get(t, path, nil); code != http.StatusOK {
			t.Errorf("GET %s: %d, want 200", path, code)
		}
	}
}
