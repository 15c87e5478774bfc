package api

import (
	"slices"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// TestIndexerRealNetwork: over the real Shimmer milestones, the TIP-26 basic outputs of
// each owner address (smr1…) are exactly the unspent basic outputs the data created
// for it, in TIP-26 order.
func TestIndexerRealNetwork(t *testing.T) {
	e := newRealEnv(t)
	spent := map[string]bool{}
	for _, ms := range e.set.Milestones {
		for _, s := range ms.Consumed {
			spent[chain.OutputID(s.OutputID).String()] = true
		}
	}
	type created struct {
		id string
		at uint32
	}
	byOwner := map[string][]created{}
	for _, ms := range e.set.Milestones {
		for _, o := range ms.Created {
			id := chain.OutputID(o.OutputID).String()
			out := outputOf(t, o.Raw)
			if out.Kind != chain.OutputBasic || spent[id] {
				continue
			}
			owner := out.Address.Bech32(e.set.Protocol.Bech32HRP)
			byOwner[owner] = append(byOwner[owner], created{id, o.BookedTimestamp})
		}
	}
	if len(byOwner) == 0 {
		t.Fatal("no unspent basic outputs in the data")
	}
	n := 0
	for owner, outs := range byOwner {
		if !strings.HasPrefix(owner, "smr1") {
			t.Fatalf("owner %s is not a Shimmer address", owner)
		}
		slices.SortFunc(outs, func(a, b created) int {
			if a.at != b.at {
				return int(a.at) - int(b.at)
			}
			return strings.Compare(a.id, b.id)
		})
		var want []string
		for _, c := range outs {
			want = append(want, c.id)
		}
		var ans outputsJSON
		e.mustGet(t, tip26Prefix+"/outputs/basic?address="+owner, &ans)
		if !slices.Equal(ans.Items, want) || ans.Cursor != "" || ans.LedgerIndex != e.set.Highest() {
			t.Errorf("basic outputs of %s: %+v, want %v at ledger index %d", owner, ans, want, e.set.Highest())
		}
		n += len(want)
	}
	t.Logf("%d unspent basic outputs of %d owners checked", n, len(byOwner))
}
