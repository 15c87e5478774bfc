package api

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/indexer"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
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
		var ans indexer.OutputsJSON
		e.mustGet(t, indexer.Tip26Prefix+"/outputs/basic?address="+owner, &ans)
		if !slices.Equal(ans.Items, want) || ans.Cursor != "" || ans.LedgerIndex != e.set.Highest() {
			t.Errorf("basic outputs of %s: %+v, want %v at ledger index %d", owner, ans, want, e.set.Highest())
		}
		slices.Reverse(want)
		newest := indexer.Tip26Prefix + "/outputs/basic?sort=newest&address=" + owner
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
		path := indexer.Tip26Prefix + "/outputs/basic?sort=newest"
		if got := e.tip26WalkAt(t, path, size, e.set.Highest()); !slices.Equal(got, want) {
			t.Errorf("GET %s pageSize %d: %v, want %v", path, size, got, want)
		}
	}
	t.Logf("%d unspent basic outputs of %d owners checked", n, len(byOwner))
}

// TestIndexerRealNetworkIncludeSpent: over the real Shimmer milestones, includeSpent=true
// lists each owner's basic outputs the data created (none of which it spends), in TIP-26
// order and (one item a page) in reverse. The outputs its milestones spend were created
// before the first indexed milestone: the spent twin holds them, and the lists leave them
// out, as their coverage (partial, from that milestone) says.
func TestIndexerRealNetworkIncludeSpent(t *testing.T) {
	e := newRealEnv(t)
	byOwner := map[string][]realCreated{}
	for _, ms := range e.set.Milestones {
		for _, o := range ms.Created {
			if out := outputOf(t, o.Raw); out.Kind == chain.OutputBasic {
				owner := out.Address.Bech32(e.set.Protocol.Bech32HRP)
				byOwner[owner] = append(byOwner[owner], realCreated{chain.OutputID(o.OutputID).String(), o.BookedTimestamp})
			}
		}
	}
	for owner, outs := range byOwner {
		want := sortedIDs(outs)
		path := indexer.Tip26Prefix + "/outputs/basic?includeSpent=true&address=" + owner
		if got := e.tip26WalkAt(t, path, 3, e.set.Highest()); !slices.Equal(got, want) {
			t.Errorf("GET %s: %v, want %v", path, got, want)
		}
		newest := path + "&sort=newest"
		if got := e.tip26WalkAt(t, newest, 1, e.set.Highest()); !slices.Equal(got, reversed(want)) {
			t.Errorf("GET %s: %v, want %v reversed", newest, got, want)
		}
		var ans indexer.OutputsJSON
		if e.mustGet(t, path, &ans); ans.Coverage.Status != "partial" || ans.SpentPartial {
			t.Errorf("GET %s: coverage %+v, spentPartial %v; want partial, false", path, ans.Coverage, ans.SpentPartial)
		}
	}
	checkSpentBefore(t, e)
}

// realCreated is an output the real data created, at its booking time.
type realCreated struct {
	id string
	at uint32
}

// sortedIDs are the outputs' IDs in TIP-26 order.
func sortedIDs(outs []realCreated) []string {
	slices.SortFunc(outs, func(a, b realCreated) int { return cmp.Or(cmp.Compare(a.at, b.at), strings.Compare(a.id, b.id)) })
	var out []string
	for _, c := range outs {
		out = append(out, c.id)
	}
	return out
}

// checkSpentBefore: every basic output the data spends is in the spent twin of its owner
// (its creation's partition) and not in its owner's includeSpent=true list.
func checkSpentBefore(t *testing.T, e *realEnv) {
	n := 0
	for _, ms := range e.set.Milestones {
		for _, s := range ms.Consumed {
			out := outputOf(t, s.Raw)
			if out.Kind != chain.OutputBasic {
				continue
			}
			id, owner := chain.OutputID(s.OutputID).String(), out.Address.Bech32(e.set.Protocol.Bech32HRP)
			spent := store.LedgerStream{Address: owner, Kind: "basic", Role: store.RoleAddress, Spent: true}
			rows, _, err := e.st.LedgerPage(context.Background(), spent, store.RangeID(s.Booked, e.st.ChunkSize),
				store.Span{}, store.PageRequest{Size: 1000})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(rows, func(r store.UnspentRow) bool { return r.OutputID == id }) {
				t.Errorf("spent output %s of %s (booked %d): not in the spent twin", id, owner, s.Booked)
			}
			listed := e.tip26WalkAt(t, indexer.Tip26Prefix+"/outputs/basic?includeSpent=true&address="+owner, 100, e.set.Highest())
			if slices.Contains(listed, id) {
				t.Errorf("spent output %s created before the data (milestone %d) is listed", id, s.Booked)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("the data spends no basic output: the spent twin is not checked")
	}
	t.Logf("%d spent basic outputs checked", n)
}
