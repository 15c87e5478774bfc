package api

import (
	"cmp"
	"slices"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// TestIndexerRealNetwork: over the real Shimmer milestones, the TIP-26 basic outputs of
// each owner address (smr1…) are exactly the unspent basic outputs the data created
// for it, in TIP-26 order, and with sort=newest (one item a page) in the reverse order,
// marked partial (the data starts at a milestone, not at a snapshot).
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
	var every []created
	for owner, outs := range byOwner {
		every = append(every, outs...)
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
		slices.Reverse(want)
		newest := tip26Prefix + "/outputs/basic?sort=newest&address=" + owner
		if got := e.tip26WalkAt(t, newest, 1, e.set.Highest()); !slices.Equal(got, want) {
			t.Errorf("GET %s: %v, want %v", newest, got, want)
		}
		e.mustGet(t, newest, &ans)
		if ans.Coverage.Status != "partial" {
			t.Errorf("GET %s: coverage %+v, want partial", newest, ans.Coverage)
		}
		n += len(want)
	}
	slices.SortFunc(every, func(a, b created) int { return cmp.Or(cmp.Compare(b.at, a.at), strings.Compare(b.id, a.id)) })
	var want []string
	for _, c := range every {
		want = append(want, c.id)
	}
	for _, size := range []int{2, 5} {
		path := tip26Prefix + "/outputs/basic?sort=newest"
		if got := e.tip26WalkAt(t, path, size, e.set.Highest()); !slices.Equal(got, want) {
			t.Errorf("GET %s pageSize %d: %v, want %v", path, size, got, want)
		}
	}
	t.Logf("%d unspent basic outputs of %d owners checked", n, len(byOwner))
}
