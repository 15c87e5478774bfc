package api

import (
	"context"
	"encoding/json"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// testExplorerClient runs testdata/explorer/chronicle_client.js, the IOTA explorer's
// calls to a Chronicle permanode and its parsing of the answers, against the server,
// with expectations written here from the data file alone: each block's children (from
// the blocks' parents), each milestone's cone, each owner's ledger updates (a consumed
// output's creation too) and balance,
// the included transactions and the created outputs.
func (e *realEnv) testExplorerClient(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH: cannot run the explorer's client")
	}
	// The richest addresses and the token distribution are the analytics worker's.
	if _, err := (analytics.LedgerJob{Store: e.st, Owner: "test"}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "expectations.json")
	b, err := json.Marshal(e.explorerExpectations(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join("testdata", "explorer", "chronicle_client.js"), e.srv.URL, file)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), " passed, 0 mismatched") {
		t.Fatalf("explorer client (%v):\n%s", err, out)
	}
	t.Logf("%s", strings.TrimSpace(string(out)))
}

type explorerAddressWant struct {
	Address      string           `json:"address"`
	Owned        []map[string]any `json:"owned"`
	TotalBalance string           `json:"totalBalance"`
}

// explorerExpectations are chronicle_client.js's expectations.
func (e *realEnv) explorerExpectations(t *testing.T) map[string]any {
	children := e.childrenOfData(t)
	var blocks, milestones, txs []map[string]any
	var updates, outputs []string
	addresses := map[string]*explorerAddressWant{}
	balances := map[string]*big.Int{}
	addressOf := func(a string) *explorerAddressWant {
		if addresses[a] == nil {
			addresses[a], balances[a] = &explorerAddressWant{Address: a, Owned: []map[string]any{}}, new(big.Int)
		}
		return addresses[a]
	}
	update := func(owner string, id [34]byte, spent bool, index uint32) {
		oid := chain.OutputID(id).String()
		a := addressOf(owner)
		a.Owned = append(a.Owned, map[string]any{"outputId": oid, "isSpent": spent, "milestoneIndex": index})
		updates = append(updates, strings.Join([]string{rest.Itoa(int(index)), oid, map[bool]string{true: "true", false: "false"}[spent]}, " "))
	}
	spent := map[[34]byte]bool{}
	for index, ms := range e.set.Milestones {
		var cone []string
		for _, b := range ms.Cone {
			id := chain.MessageID(b.ID).String()
			cone = append(cone, id)
			blocks = append(blocks, map[string]any{"id": id, "children": append([]string{}, children[id]...)})
			m, err := chain.DecodeMessage(b.Raw)
			if err != nil {
				t.Fatal(err)
			}
			if tx, ok := m.Payload.(*chain.Transaction); ok && b.InclusionState == tip25.LedgerIncluded {
				txs = append(txs, map[string]any{"id": tx.ID().String()})
			}
		}
		milestones = append(milestones, map[string]any{"index": index,
			"milestoneId": chain.MilestoneID(ms.MilestoneID).String(), "blocks": cone})
		for _, s := range ms.Consumed {
			spent[s.OutputID] = true
			owner := e.owner(outputOf(t, s.Raw))
			update(owner, s.OutputID, true, index)
			if e.set.Milestones[s.Booked] == nil { // created before the data: its creation is recorded too
				update(owner, s.OutputID, false, s.Booked)
			}
		}
	}
	for index, ms := range e.set.Milestones {
		for _, o := range ms.Created {
			out := outputOf(t, o.Raw)
			owner := e.owner(out)
			update(owner, o.OutputID, false, index)
			outputs = append(outputs, chain.OutputID(o.OutputID).String())
			if !spent[o.OutputID] {
				balances[owner].Add(balances[owner], new(big.Int).SetUint64(out.Amount))
			}
		}
	}
	var addrs []*explorerAddressWant
	for a, w := range addresses {
		w.TotalBalance = balances[a].String()
		addrs = append(addrs, w)
	}
	lowest, highest := e.set.Milestones[e.set.Lowest()], e.set.Milestones[e.set.Highest()]
	dates := []map[string]string{
		{"date": time.Unix(int64(lowest.Timestamp), 0).UTC().AddDate(0, 0, -1).Format(time.RFC3339)},
		{"date": time.Unix(int64(highest.Timestamp), 0).UTC().Format(time.RFC3339)},
	}
	return map[string]any{"ledgerIndex": e.set.Highest(), "blocks": blocks, "milestones": milestones,
		"transactions": txs, "outputs": outputs, "updates": updates, "addresses": addrs, "targetDates": dates}
}
