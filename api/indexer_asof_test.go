package api

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/indexer"
	"github.com/stardust-indexer/stardust-indexer/chain"
)

// asOfIndexes are the earlier ledger indexes the as-of tests ask at: spread over the
// chain, so each holds outputs spent later and outputs created later.
func asOfIndexes(e *env) []uint32 {
	up := e.truth.UpTo
	return []uint32{up / 3, up / 2, 2 * up / 3, up - 1}
}

// testTip26AsOf: with ledgerIndex=N every list pages through exactly the model's outputs
// unspent once N was applied (with includeSpent, every output created by then), in both
// orders, at ledger index N; among them are outputs spent after N, which only the
// spent twin still holds.
func testTip26AsOf(t *testing.T, e *env) {
	spentLater := 0
	for _, n := range asOfIndexes(e) {
		unspent, every := e.modelOutputs(n, false), e.modelOutputs(n, true)
		for _, c := range tip26Cases(valuesOf(unspent)) {
			want := c.wanted(unspent)
			spentLater += countSpent(e, want)
			c.query += fmt.Sprintf("&ledgerIndex=%d", n)
			e.checkAsOfWalks(t, c, n, want)
			if c.route == "" {
				continue // no includeSpent on inx-indexer's generic route
			}
			c.query += "&includeSpent=true"
			e.checkAsOfWalks(t, c, n, c.wanted(every))
		}
	}
	if spentLater == 0 {
		t.Fatal("no answer holds an output spent after its ledger index: the test checks nothing")
	}
	t.Logf("%d outputs spent after the index they were listed at", spentLater)
}

// checkAsOfWalks pages through c at ledger index n, in TIP-26 order and (on the kinds'
// routes) newest first, and wants exactly want.
func (e *env) checkAsOfWalks(t *testing.T, c tip26Case, n uint32, want []string) {
	t.Helper()
	for _, size := range []int{7, 100} {
		if got := e.tip26WalkAt(t, c.path(), size, n); !slices.Equal(got, want) {
			t.Errorf("GET %s pageSize %d: %d items, want %d\n got %v\nwant %v", c.path(), size, len(got),
				len(want), got, want)
		}
		if c.route == "" {
			continue
		}
		newest := c
		newest.query += "&sort=newest"
		if got := e.tip26WalkAt(t, newest.path(), size, n); !slices.Equal(got, reversed(want)) {
			t.Errorf("GET %s pageSize %d: %d items, want %d in reverse", newest.path(), size, len(got), len(want))
		}
	}
}

// testTip26ChainAsOf: at ledgerIndex=N a chain look-up answers the chain's output unspent
// once N was applied, and 404 for a chain with none then (not created yet, or spent
// out); above the ledger index, 400.
func testTip26ChainAsOf(t *testing.T, e *env) {
	answered, missing := 0, 0
	for _, n := range asOfIndexes(e) {
		live := e.liveChains(n)
		for id, ot := range e.truth.Outputs {
			k := ot.Output.Kind
			if k != chain.OutputAlias && k != chain.OutputNFT && k != chain.OutputFoundry {
				continue
			}
			key := k.String() + "/" + chainKey(id, &ot.Output)
			path := fmt.Sprintf("%s/outputs/%s?ledgerIndex=%d", indexer.Tip26Prefix, key, n)
			var ans indexer.OutputsJSON
			code := e.get(t, path, &ans)
			switch want, ok := live[key]; {
			case ok && (code != http.StatusOK || !slices.Equal(ans.Items, []string{want}) || ans.LedgerIndex != n):
				t.Errorf("GET %s: %d %+v, want [%s] at %d", path, code, ans, want, n)
			case !ok && code != http.StatusNotFound:
				t.Errorf("GET %s: status %d, want 404 (no output of the chain unspent at %d)", path, code, n)
			case ok:
				answered++
			default:
				missing++
			}
		}
	}
	if answered == 0 || missing == 0 {
		t.Fatalf("%d look-ups answered, %d missing: the test needs both", answered, missing)
	}
	e.wantAboveLedgerIndex(t, fmt.Sprintf("%s/outputs/basic?ledgerIndex=%d", indexer.Tip26Prefix, e.truth.UpTo+1))
	t.Logf("%d chain look-ups answered, %d with no output at their index", answered, missing)
}

// liveChains are the model's chain outputs unspent at n, by "kind/chain ID".
func (e *env) liveChains(n uint32) map[string]string {
	live := map[string]string{}
	for _, m := range e.modelOutputs(n, false) {
		if m.kind != "basic" {
			oid, _ := chain.ParseOutputID(m.id)
			live[m.kind+"/"+chainKey(oid, m.out)] = m.id
		}
	}
	return live
}

// wantAboveLedgerIndex: path asks past the ledger index, which is a 400 naming
// ledgerIndex.
func (e *env) wantAboveLedgerIndex(t *testing.T, path string) {
	t.Helper()
	if code, body := e.fetch(t, path); code != http.StatusBadRequest || !strings.Contains(string(body), "ledgerIndex") {
		t.Errorf("GET %s (past the ledger index): %d %s, want 400 naming ledgerIndex", path, code, body)
	}
}
