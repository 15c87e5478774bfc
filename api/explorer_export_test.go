package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/explorer"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

// testExplorerExport: the export of every address with ledger updates, over a time range
// inside the chain, starts at the model's balance before the range's first milestone;
// the row that ends each milestone's changes holds the model's balance after it; every
// milestone that changed the balance has rows; the end record holds the model's balance
// at the range's last milestone.
func testExplorerExport(t *testing.T, e *env, w *explorerWant) {
	totals, ms := modelTotals(e), e.truth.Milestones
	first, last := ms[5], ms[len(ms)-4]
	from, to := first.Timestamp.Unix(), ms[len(ms)-3].Timestamp.Unix()
	events := map[string]int{}
	for a := range w.updates {
		recs := e.exportRange(t, a, fmt.Sprintf("&from=%d&to=%d", from, to))
		head, body, end := recs[0], recs[1:len(recs)-1], recs[len(recs)-1]
		if head.FirstMilestone != first.Index || head.LastMilestone != last.Index ||
			head.StartBalance != fmt.Sprint(totals[first.Index-1][a]) || end.Balance != fmt.Sprint(totals[last.Index][a]) {
			t.Fatalf("export of %s over %d-%d: header %+v, end %+v; want milestones %d-%d, balances %d to %d", a,
				from, to, head, end, first.Index, last.Index, totals[first.Index-1][a], totals[last.Index][a])
		}
		checkExportRows(t, a, head.StartBalance, body, end.Balance)
		changed := map[uint32]bool{}
		for i, r := range body {
			events[r.Event]++
			changed[r.MilestoneIndex] = true
			closes := i == len(body)-1 || body[i+1].MilestoneIndex != r.MilestoneIndex
			if closes && r.BalanceAfter != fmt.Sprint(totals[r.MilestoneIndex][a]) {
				t.Fatalf("export of %s: after milestone %d %s, the model says %d", a, r.MilestoneIndex, r.BalanceAfter,
					totals[r.MilestoneIndex][a])
			}
		}
		for k := first.Index; k <= last.Index; k++ {
			if totals[k][a] != totals[k-1][a] && !changed[k] {
				t.Fatalf("export of %s: milestone %d changed the balance, the export has no row of it", a, k)
			}
		}
	}
	t.Logf("%d exports: %v", len(w.updates), events)
	if events["created"] == 0 || events["spent"] == 0 || events["expired"] == 0 {
		t.Fatalf("the exports lack an event kind: %v", events)
	}
}

// testExplorerExportErrors: bad parameters are refused naming the parameter; a range
// that holds no milestone is an empty export (after the ledger index: at the balance
// route's balance); HEAD sends the headers alone.
func testExplorerExportErrors(t *testing.T, e *env, w *explorerWant) {
	addr := chain.Address{}.Bech32(sim.HRP)
	path := explorerPath + "/addresses/" + addr + "/export"
	for q, detail := range map[string]string{
		"?format=xml":      `format: want csv or jsonl, got "xml"`,
		"?from=200&to=100": "from: 1970-01-01T00:03:20Z is after to",
		"?from=yesterday":  "from:",
		"?limit=5":         `"limit": unknown query parameter`,
	} {
		code, body := e.fetch(t, path+q)
		var ans struct{ Detail string }
		if json.Unmarshal(body, &ans) != nil || code != http.StatusBadRequest || !strings.Contains(ans.Detail, detail) {
			t.Errorf("GET %s: %d %s, want 400 naming %q", path+q, code, body, detail)
		}
	}
	if code, body := e.fetch(t, explorerPath+"/addresses/smr1nope/export"); code != http.StatusBadRequest {
		t.Errorf("export of a malformed address: %d %s, want 400", code, body)
	}
	recs := e.exportRange(t, addr, "&from=100&to=200")
	if len(recs) != 2 || recs[0].FirstMilestone != 0 || recs[1].Rows != 0 {
		t.Errorf("export of a range before the chain: %+v, want a header and an empty end", recs)
	}
	later := e.truth.Milestones[len(e.truth.Milestones)-1].Timestamp.Unix() + 3600
	for a := range w.balances {
		var bal explorer.BalanceJSON
		e.mustGet(t, explorerPath+"/balance/"+a, &bal)
		recs := e.exportRange(t, a, fmt.Sprintf("&from=%d", later))
		if len(recs) != 2 || recs[0].StartBalance != bal.TotalBalance || recs[1].Balance != bal.TotalBalance {
			t.Errorf("export of %s after the ledger index: %+v, want no row at the balance, %s", a, recs, bal.TotalBalance)
		}
	}
	resp, body := send(t, http.MethodHead, e.srv.URL+path, "", "")
	if resp.StatusCode != http.StatusOK || len(body) != 0 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") ||
		resp.Header.Get("X-Ledger-Coverage") == "" {
		t.Errorf("HEAD %s: %d %v %q", path, resp.StatusCode, resp.Header, body)
	}
}
