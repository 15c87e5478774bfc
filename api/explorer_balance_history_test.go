package api

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/explorer"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

// modelTotals is each address's total balance once each milestone of the chain was
// applied (the model's replay, index by index).
func modelTotals(e *env) map[uint32]map[string]uint64 {
	out := map[uint32]map[string]uint64{}
	for _, m := range e.truth.Milestones {
		w := newExplorerWantAt(e.truth, m.Index)
		out[m.Index] = map[string]uint64{}
		for a, b := range w.balances {
			out[m.Index][a] = b.total
		}
	}
	return out
}

// testExplorerBalanceHistory: an address's balance history by milestone lists exactly
// the milestones at which the model's replayed balance changed, each with that balance
// (and the outputs whose changes sum to it); by day, every UTC day's closing balance is
// the model's at the day's last milestone. Both over paged walks, from a start in the
// chain, whose starting balance is the model's before it.
func testExplorerBalanceHistory(t *testing.T, e *env, w *explorerWant) {
	totals, ms := modelTotals(e), e.truth.Milestones
	from, to := ms[5].Index, ms[len(ms)-1].Index
	checked, points := 0, 0
	for a, us := range w.updates {
		if len(us) < 8 {
			continue
		}
		points += checkMilestoneHistory(t, e, a, totals, from, to)
		checkDailyHistory(t, e, a, totals, from, to)
		if checked++; checked == 6 {
			break
		}
	}
	if points == 0 {
		t.Fatal("no balance changed in any history checked")
	}
	e.wantAboveLedgerIndex(t, fmt.Sprintf("%s/balance/%s/history?to=%d", explorerPath, chain.Address{}.Bech32(sim.HRP), to+1))
	t.Logf("%d histories, %d points", checked, points)
}

func checkMilestoneHistory(t *testing.T, e *env, a string, totals map[uint32]map[string]uint64, from, to uint32) int {
	t.Helper()
	path := fmt.Sprintf("%s/balance/%s/history?from=%d", explorerPath, a, from)
	pages := getPages(t, e, path, 3, func(p *explorer.BalanceHistoryJSON) string { return p.Cursor })
	if len(pages) == 0 || pages[0].Start != strconv.FormatUint(totals[from-1][a], 10) || pages[0].To != to {
		t.Fatalf("GET %s: %+v, want start %d up to %d", path, pages, totals[from-1][a], to)
	}
	var got []string
	for _, p := range pages {
		for _, pt := range p.Items {
			var sum int64
			for _, o := range pt.Outputs {
				d, _ := strconv.ParseInt(o.Change, 10, 64)
				sum += d
			}
			if pt.Balance != strconv.FormatUint(totals[pt.MilestoneIndex][a], 10) || strconv.FormatInt(sum, 10) != pt.Change {
				t.Errorf("GET %s: at %d balance %s change %s (outputs %d), want %d", path, pt.MilestoneIndex, pt.Balance,
					pt.Change, sum, totals[pt.MilestoneIndex][a])
			}
			if pt.Change != "0" {
				got = append(got, fmt.Sprint(pt.MilestoneIndex))
			}
		}
	}
	var want []string
	for k := from; k <= to; k++ {
		if totals[k][a] != totals[k-1][a] {
			want = append(want, fmt.Sprint(k))
		}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("GET %s: changes at %v, want %v", path, got, want)
	}
	return len(got)
}

func checkDailyHistory(t *testing.T, e *env, a string, totals map[uint32]map[string]uint64, from, to uint32) {
	t.Helper()
	closing := map[string]uint64{} // UTC date → the model's balance at its last milestone in range
	var days []string
	for _, m := range e.truth.Milestones {
		if m.Index < from || m.Index > to {
			continue
		}
		d := m.Timestamp.UTC().Format(time.DateOnly)
		if _, seen := closing[d]; !seen {
			days = append(days, d)
		}
		closing[d] = totals[m.Index][a]
	}
	path := fmt.Sprintf("%s/balance/%s/history?from=%d&granularity=day", explorerPath, a, from)
	var got []string
	for _, p := range getPages(t, e, path, 2, func(p *explorer.BalanceHistoryJSON) string { return p.Cursor }) {
		for _, pt := range p.Items {
			got = append(got, pt.Date)
			if pt.Balance != strconv.FormatUint(closing[pt.Date], 10) {
				t.Errorf("GET %s: %s closing %s, want %d", path, pt.Date, pt.Balance, closing[pt.Date])
			}
		}
	}
	if strings.Join(got, " ") != strings.Join(days, " ") {
		t.Errorf("GET %s: days %v, want %v", path, got, days)
	}
}
