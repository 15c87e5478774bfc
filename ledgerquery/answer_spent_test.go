package ledgerquery

import (
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// spentStore holds 30 outputs of an address over three partitions, every third one
// spent, one of them also still in the unspent stream (a spend half-written), and one
// spent output created before the first indexed milestone (12).
func spentStore() (m *memStore, unspent, every []string) {
	m = newMemStore(store.LedgerCoverage{Index: 50, Since: 12, Partitions: []int32{1, 2, 3}})
	owned := Stream{Kind: "basic", Address: "a", Role: store.RoleAddress}
	spent := owned
	spent.Spent = true
	m.add(spent, 0, store.UnspentRow{Kind: "basic", CreatedAt: 5, OutputID: id(99), MilestoneIndex: 5, Owner: "a"})
	for n := range 30 {
		rng := int32(1 + n/10)
		r := store.UnspentRow{Kind: "basic", CreatedAt: int64(10*rng) + int64(n%10), OutputID: id(n),
			MilestoneIndex: int32(12 + n), Owner: "a"}
		every = append(every, r.OutputID)
		if n%3 == 0 {
			m.add(spent, rng, r)
			if n != 9 {
				continue
			}
		}
		m.add(owned, rng, r)
		unspent = append(unspent, r.OutputID)
	}
	m.spentSince = 12
	return m, unspent, every
}

// TestAnswerIncludeSpent: with IncludeSpent a page merges the spent twin's streams with
// the unspent ones, each output once, in either order and over any page size; without
// it the spent outputs stay out.
func TestAnswerIncludeSpent(t *testing.T) {
	m, unspent, every := spentStore()
	req := Request{Kinds: []chain.OutputKind{chain.OutputBasic}, Filter: Filter{Address: at("a")}}
	for _, size := range []int{1, 4, 100} {
		req.PageSize = size
		req.IncludeSpent, req.Newest = false, false
		if got := followPages(t, m, req); !slices.Equal(got, unspent) {
			t.Errorf("unspent, page size %d: %d items %v, want %d", size, len(got), got, len(unspent))
		}
		req.IncludeSpent = true
		if got := followPages(t, m, req); !slices.Equal(got, every) {
			t.Errorf("includeSpent, page size %d: %d items %v, want %d", size, len(got), got, len(every))
		}
		req.Newest = true
		want := slices.Clone(every)
		slices.Reverse(want)
		if got := followPages(t, m, req); !slices.Equal(got, want) {
			t.Errorf("includeSpent newest, page size %d: %d items %v, want %d", size, len(got), got, len(want))
		}
	}
}

// TestAnswerSpentCoverage: a list with spent outputs is partial, and says why, when the
// spent twin lacks the first covered milestone's spends (the one after a bootstrap's L,
// else the first indexed one); a list without them is unaffected.
func TestAnswerSpentCoverage(t *testing.T) {
	m, _, _ := spentStore()
	boot := &store.LedgerBootstrap{Index: 11}
	for _, tc := range []struct {
		name         string
		since        uint32
		bootstrap    bool
		spent        bool
		wantPartial  bool
		wantComplete bool
	}{
		{"fresh keyspace", 12, false, true, false, false},
		{"twin added later", 20, false, true, true, false},
		{"bootstrap, twin from L+1", 12, true, true, false, true},
		{"bootstrap, twin added later", 13, true, true, true, false},
		{"bootstrap, twin added later, unspent only", 13, true, false, false, true},
	} {
		m.spentSince = tc.since
		m.cov.Complete, m.cov.Bootstrap, m.cov.Since = tc.bootstrap, nil, 12
		if tc.bootstrap {
			m.cov.Bootstrap, m.cov.Since = boot, boot.Index
		}
		res := answer(t, m, Request{Kinds: []chain.OutputKind{chain.OutputBasic}, IncludeSpent: tc.spent})
		if res.SpentPartial != tc.wantPartial || res.Coverage.Complete != tc.wantComplete {
			t.Errorf("%s: spent partial %v, complete %v; want %v, %v", tc.name, res.SpentPartial,
				res.Coverage.Complete, tc.wantPartial, tc.wantComplete)
		}
	}
}
