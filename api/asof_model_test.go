package api

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/explorer"
	"github.com/stardust-indexer/stardust-indexer/api/indexer"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// asOfChain is the as-of model test's chain: 2000 milestones over 200 partitions of
// testChunk, with few messages each, so that outputs live long and are spent far from
// where they were created.
const asOfChain = 2000

var asOfSim = sim.Options{Seed: 2000, MessagesPerMilestone: 3, AddressPool: 12, TagPool: 4}

// asOfSamples is how many random ledger indexes the test asks at.
const asOfSamples = 4

// TestLedgerAsOfModel: at random ledger indexes N across a 2000-milestone chain, every
// as-of answer equals a replay of the simulator's ground truth up to N: the TIP-26 lists
// of every filter (with and without includeSpent), each chain's look-up, the metadata of
// outputs created or spent near N, every address's balance, its ledger updates up to N,
// and its balance history's last point.
func TestLedgerAsOfModel(t *testing.T) {
	testcontainers.SkipShort(t)
	e := newEnv(t, asOfSim, asOfChain)
	rng := rand.New(rand.NewPCG(asOfChain, 7))
	for range asOfSamples {
		n := 200 + rng.Uint32N(asOfChain-200)
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			checkListsAsOf(t, e, n)
			checkOutputsNear(t, e, n)
			checkAddressesAsOf(t, e, n)
		})
	}
}

// checkListsAsOf pages every TIP-26 filter at N (page size 1000, the clients' default)
// and compares it with the model's outputs unspent at N, and with includeSpent its
// outputs created by N.
func checkListsAsOf(t *testing.T, e *env, n uint32) {
	unspent, every := e.modelOutputs(n, false), e.modelOutputs(n, true)
	listed := 0
	for _, c := range tip26Cases(valuesOf(unspent)) {
		c.query += fmt.Sprintf("&ledgerIndex=%d", n)
		want := c.wanted(unspent)
		if got := e.tip26WalkAt(t, c.path(), 1000, n); !slices.Equal(got, want) {
			t.Errorf("GET %s: %d items, want %d", c.path(), len(got), len(want))
		}
		listed += len(want)
		if c.route != "" {
			c.query += "&includeSpent=true"
			if got, want := e.tip26WalkAt(t, c.path(), 1000, n), c.wanted(every); !slices.Equal(got, want) {
				t.Errorf("GET %s: %d items, want %d", c.path(), len(got), len(want))
			}
		}
	}
	if listed == 0 {
		t.Fatalf("no list at %d holds an output", n)
	}
}

// checkOutputsNear asks, at N, the metadata of every output created or spent within 20
// milestones of N (and of a chain's look-up for the chain outputs among them).
func checkOutputsNear(t *testing.T, e *env, n uint32) {
	base := e.srv.URL + "/api/core/v2"
	near := func(m uint32) bool { return m+20 >= n && m <= n+20 }
	asked := 0
	live := e.liveChains(n)
	for id, o := range e.truth.Outputs {
		if o.Output.Kind == chain.OutputLegacy || !(near(o.MilestoneIndex) || o.Spent && near(o.SpentMilestone)) {
			continue
		}
		checkOutputAt(t, base, id, o, n)
		asked++
		if k := o.Output.Kind; k != chain.OutputBasic {
			key := k.String() + "/" + chainKey(id, &o.Output)
			var ans indexer.OutputsJSON
			code := e.get(t, fmt.Sprintf("%s/outputs/%s?ledgerIndex=%d", indexer.Tip26Prefix, key, n), &ans)
			if want, ok := live[key]; ok != (code == 200) || ok && !slices.Equal(ans.Items, []string{want}) {
				t.Errorf("chain %s at %d: %d %v, want %q", key, n, code, ans.Items, want)
			}
		}
	}
	if asked == 0 {
		t.Fatalf("no output created or spent near %d", n)
	}
}

// checkAddressesAsOf compares every address's balance at N, its ledger updates up to N
// and its balance history's last point with the model replayed to N.
func checkAddressesAsOf(t *testing.T, e *env, n uint32) {
	w := newExplorerWantAt(e.truth, n)
	for a, us := range w.updates {
		want := w.balances[a]
		if want == nil {
			want = &balanceWant{}
		}
		var b explorer.BalanceJSON
		e.mustGet(t, fmt.Sprintf("%s/balance/%s?ledgerIndex=%d", explorerPath, a, n), &b)
		if b.TotalBalance != explorer.U64(want.total) || b.AvailableBalance != explorer.U64(want.available) ||
			b.SigLockedBalance != explorer.U64(want.sigLocked) || b.LedgerIndex != n {
			t.Errorf("balance of %s at %d: %+v, want %+v", a, n, b, *want)
		}
		var upTo []updateWant
		for _, u := range us {
			if u.MilestoneIndex <= n {
				upTo = append(upTo, u)
			}
		}
		path := fmt.Sprintf("%s/addresses/%s/history?sort=oldest&ledgerIndex=%d", explorerPath, a, n)
		equalUpdates(t, path, historyItems(t, e, path, 1000), sortedUpdates(upTo, true))
		path = fmt.Sprintf("%s/balance/%s/history?to=%d", explorerPath, a, n)
		pages := getPages(t, e, path, 1000, func(p *explorer.BalanceHistoryJSON) string { return p.Cursor })
		last := pages[0].Start
		for _, p := range pages {
			if len(p.Items) > 0 {
				last = p.Items[len(p.Items)-1].Balance
			}
		}
		if last != strconv.FormatUint(want.total, 10) {
			t.Errorf("balance history of %s up to %d ends at %s, want %d", a, n, last, want.total)
		}
	}
}
