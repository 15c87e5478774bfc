package api

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math/big"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/explorer"
)

// exportRecord is a JSONL export's record, whichever kind.
type exportRecord struct {
	Record         string `json:"record"`
	Network        string `json:"network"`
	Address        string `json:"address"`
	FirstMilestone uint32 `json:"firstMilestone"`
	LastMilestone  uint32 `json:"lastMilestone"`
	StartBalance   string `json:"startBalance"`
	Coverage       struct{ Status, Reason string }
	MilestoneIndex uint32 `json:"milestoneIndex"`
	Timestamp      int64  `json:"milestoneTimestamp"`
	Time           string `json:"time"`
	BlockID        string `json:"blockId"`
	TransactionID  string `json:"transactionId"`
	OutputID       string `json:"outputId"`
	Event          string `json:"event"`
	Direction      string `json:"direction"`
	Amount         string `json:"amount"`
	DisplayAmount  string `json:"displayAmount"`
	NativeTokens   []struct{ ID, Amount string }
	Counterparties []string `json:"counterparties"`
	BalanceAfter   string   `json:"balanceAfter"`
	Rows           int      `json:"rows"`
	Balance        string   `json:"balance"`
}

// checkExportsReal: the export of every owner the snapshot file checks, from the
// bootstrap on, reconciles: it starts at the file's balance at 17338 and ends at the
// file's balance at 17340 and the balance route's; each row's balance is the one before
// it plus or minus its amount; the CSV and JSONL forms hold the same rows; a creation
// names its block and transaction, a spend the spending transaction's block.
func checkExportsReal(t *testing.T, e *env, want *snapshotExpectation) {
	owners := map[string]bool{}
	for _, n := range []string{"17338", "17340"} {
		for a := range want.States[n].RealOwners {
			owners[a] = true
		}
	}
	checked := 0
	rows, events := 0, map[string]int{}
	for _, a := range slices.Sorted(maps.Keys(owners)) {
		recs := e.exportRange(t, a, "")
		head, body, end := recs[0], recs[1:len(recs)-1], recs[len(recs)-1]
		if head.Record != "header" || end.Record != "end" || end.Rows != len(body) || head.Network != "shimmer" ||
			head.FirstMilestone != 17339 || head.LastMilestone != 17340 || head.Coverage.Status != "complete" {
			t.Fatalf("export of %s: header %+v, end %+v, %d rows", a, head, end, len(body))
		}
		checkExportRows(t, a, head.StartBalance, body, end.Balance)
		var bal explorer.BalanceJSON
		e.mustGet(t, fmt.Sprintf("%s/balance/%s", explorer.ExplorerPrefix, a), &bal)
		if end.Balance != bal.TotalBalance {
			t.Errorf("export of %s ends at %s, the balance route says %s", a, end.Balance, bal.TotalBalance)
		}
		before, ok1 := fileBalance(want, "17338", a)
		after, ok2 := fileBalance(want, "17340", a)
		if ok1 && ok2 {
			checked++
			if head.StartBalance != before || end.Balance != after {
				t.Errorf("export of %s: %s to %s, the file says %s to %s", a, head.StartBalance, end.Balance, before, after)
			}
		}
		if csvRows := e.exportCSV(t, a); !slices.Equal(csvRows, csvForm(body)) {
			t.Errorf("export of %s: CSV rows\n%v\nJSONL rows\n%v", a, csvRows, csvForm(body))
		}
		for _, r := range body {
			events[r.Event+" "+r.Direction]++
			if len(r.Counterparties) > 0 {
				events["with counterparties "+r.Direction]++
			}
		}
		rows += len(body)
	}
	t.Logf("%d owners (%d with the file's balances), %d rows: %v", len(owners), checked, rows, events)
	if checked == 0 || events["created received"] == 0 || events["spent sent"] == 0 ||
		events["with counterparties received"] == 0 || events["with counterparties sent"] == 0 {
		t.Fatalf("the exports hold no creation or no spend: %v", events)
	}
}

// fileBalance is what the snapshot file says a holds in state n: its checked balance, or
// 0 where it names no output of a; false where it names outputs but checks no balance.
func fileBalance(want *snapshotExpectation, n, a string) (string, bool) {
	x, ok := want.States[n].RealOwners[a]
	if !ok {
		return "0", true
	}
	return x.OwnedAmount, x.BalanceChecked
}

// checkExportRows: each row's balance follows from the one before, the rows of a
// transaction name it and its block, and the display amount is the amount in SMR.
func checkExportRows(t *testing.T, a, start string, body []exportRecord, end string) {
	balance, _ := new(big.Int).SetString(start, 10)
	for _, r := range body {
		amount, _ := new(big.Int).SetString(r.Amount, 10)
		if r.Direction == "sent" {
			amount.Neg(amount)
		}
		balance.Add(balance, amount)
		smr, _ := new(big.Rat).SetString(r.DisplayAmount)
		if r.BalanceAfter != balance.String() || smr == nil || smr.Mul(smr, big.NewRat(1_000_000, 1)).RatString() != r.Amount {
			t.Fatalf("export of %s: row %+v: balance after %s, want %s (or display amount off)", a, r, r.BalanceAfter, balance)
		}
		created := r.Event == "created" && (r.TransactionID != r.OutputID[:66] || r.BlockID == "")
		spent := r.Event == "spent" && (r.TransactionID == "" || r.BlockID == "")
		if created || spent || (r.Event == "spent") != (r.Direction == "sent" && r.Event != "expired") {
			t.Fatalf("export of %s: row %+v names the wrong transaction or block", a, r)
		}
	}
	if balance.String() != end {
		t.Fatalf("export of %s: rows sum to %s, the end record says %s", a, balance, end)
	}
}

// exportRange reads an address's export in JSONL, with query added: its records, after
// checking the answer's file name.
func (e *env) exportRange(t *testing.T, a, query string) []exportRecord {
	t.Helper()
	resp, body := send(t, http.MethodGet, e.srv.URL+fmt.Sprintf("%s/addresses/%s/export?format=jsonl%s",
		explorer.ExplorerPrefix, a, query), "", "")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("export of %s: %d\n%s", a, resp.StatusCode, body)
	}
	var out []exportRecord
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		var r exportRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("export of %s: %v in %s", a, err, sc.Bytes())
		}
		out = append(out, r)
	}
	name := fmt.Sprintf("%s-%s-%d-%d.jsonl", out[0].Network, a, out[0].FirstMilestone, out[0].LastMilestone)
	kind, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition"))
	if len(out) < 2 || err != nil || kind != "attachment" || params["filename"] != name {
		t.Fatalf("export of %s: %v\n%s", a, resp.Header, body)
	}
	return out
}

// exportCSV reads an address's export in CSV: its rows, column header first.
func (e *env) exportCSV(t *testing.T, a string) []string {
	t.Helper()
	code, body := e.fetch(t, fmt.Sprintf("%s/addresses/%s/export", explorer.ExplorerPrefix, a))
	if code != http.StatusOK || !bytes.HasPrefix(body, []byte("# stardust-indexer address export; network=shimmer")) ||
		!bytes.Contains(body, []byte("\n# end; rows=")) {
		t.Fatalf("CSV export of %s: %d\n%s", a, code, body)
	}
	r := csv.NewReader(bytes.NewReader(body))
	r.Comment = '#'
	var out []string
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("CSV export of %s: %v\n%s", a, err, body)
		}
		out = append(out, strings.Join(rec, ","))
	}
}

// csvForm is the CSV rows the JSONL rows stand for, the column header first.
func csvForm(body []exportRecord) []string {
	out := []string{"milestoneIndex,milestoneTimestamp,time,blockId,transactionId,outputId,event,direction,amount," +
		"displayAmount,nativeTokens,counterparties,balanceAfter"}
	for _, r := range body {
		var tokens []string
		for _, nt := range r.NativeTokens {
			tokens = append(tokens, nt.ID+"="+nt.Amount)
		}
		out = append(out, strings.Join([]string{strconv.Itoa(int(r.MilestoneIndex)), strconv.FormatInt(r.Timestamp, 10),
			r.Time, r.BlockID, r.TransactionID, r.OutputID, r.Event, r.Direction, r.Amount, r.DisplayAmount,
			strings.Join(tokens, ";"),
			strings.Join(r.Counterparties, ";"), r.BalanceAfter}, ","))
	}
	return out
}
