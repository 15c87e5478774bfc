package ledgerquery

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// TestMirrorReversesOrder: mirrored positions order as the reverse of TIP-26 order, and
// mirroring twice is the identity.
func TestMirrorReversesOrder(t *testing.T) {
	ps := []store.Position{{CreatedAt: 5, OutputID: id(3)}, {CreatedAt: 5, OutputID: id(0x1f)}, {CreatedAt: 6, OutputID: id(1)},
		{CreatedAt: 4294967295, OutputID: id(2)}, {CreatedAt: 0, OutputID: id(9)}}
	for _, a := range ps {
		if mirror(mirror(a)) != a {
			t.Errorf("mirror twice of %v: %v", a, mirror(mirror(a)))
		}
		for _, b := range ps {
			if Less(a, b) != Less(mirror(b), mirror(a)) {
				t.Errorf("%v < %v is %v, but mirrored %v", a, b, Less(a, b), Less(mirror(b), mirror(a)))
			}
		}
	}
}

// TestAnswerNewestPages: following newest-first cursors through Answer, with and without
// an address, within creation windows, under budgets from tiny to ample and with unknown
// partition starts, visits every match once, newest first; the cursors are refused as
// oldest-first ones.
func TestAnswerNewestPages(t *testing.T) {
	rnd := rand.New(rand.NewSource(11))
	m := newMemStore(store.LedgerCoverage{Index: 90, Partitions: []int32{0, 1, 2, 3, 4, 5, 6, 7, 8}})
	m.hidden = map[int32]bool{3: true, 7: true}
	byKind, byOwner := Stream{Kind: "basic"}, Stream{Kind: "basic", Address: "a", Role: store.RoleAddress}
	var all []store.UnspentRow
	for n := range 120 {
		rng := int32(rnd.Intn(9))
		r := store.UnspentRow{Kind: "basic", CreatedAt: int64(10*rng) + int64(rnd.Intn(10)), OutputID: id(rnd.Intn(1 << 16)),
			Owner: []string{"a", "b"}[n%2]}
		if slices.ContainsFunc(all, func(o store.UnspentRow) bool { return o.OutputID == r.OutputID }) {
			continue
		}
		all = append(all, r)
		m.add(byKind, rng, r)
		if r.Owner == "a" {
			m.add(byOwner, rng, r)
		}
	}
	for _, parts := range m.rows {
		for _, rows := range parts {
			slices.SortFunc(rows, func(a, b store.UnspentRow) int { return comparePositions(PositionOf(&a), PositionOf(&b)) })
		}
	}
	filters := map[string]Filter{"all": {}, "address": {Address: at("a")},
		"window":            {CreatedAfter: ptr(int64(25)), CreatedBefore: ptr(int64(71))},
		"address in window": {Address: at("a"), CreatedAfter: ptr(int64(9)), CreatedBefore: ptr(int64(50))}}
	for name, f := range filters {
		var want []string
		for _, r := range all {
			if f.Match(&r) {
				want = append(want, r.OutputID)
			}
		}
		slices.SortFunc(want, func(a, b string) int { return -comparePositions(positionIn(all, a), positionIn(all, b)) })
		for _, size := range []int{1, 3, 50} {
			for _, budget := range []Budget{{Rows: 1, Partitions: 1}, {Rows: 5, Partitions: 2}, {Rows: 1000, Partitions: 48}} {
				t.Run(fmt.Sprintf("%s/size%d/rows%d", name, size, budget.Rows), func(t *testing.T) {
					got := followPages(t, m, Request{Kinds: []chain.OutputKind{chain.OutputBasic}, Filter: f, PageSize: size,
						Budget: budget, Newest: true})
					if !slices.Equal(got, want) {
						t.Errorf("got %d items %v\nwant %d %v", len(got), got, len(want), want)
					}
				})
			}
		}
	}
}

// followPages follows a query's cursors to its end; a cursor must name the page size
// and be refused in the other order.
func followPages(t *testing.T, m *memStore, req Request) []string {
	t.Helper()
	var got []string
	for pages := 0; ; pages++ {
		if pages > 2000 {
			t.Fatal("no last page")
		}
		res := answer(t, m, req)
		got = append(got, res.Items...)
		if res.Next == "" {
			return got
		}
		if _, _, err := DecodeSortedCursor(res.Next, !req.Newest); err == nil {
			t.Fatalf("cursor %q (newest %v) taken in the other order", res.Next, req.Newest)
		}
		at, size, err := DecodeSortedCursor(res.Next, req.Newest)
		if err != nil || size != req.PageSize {
			t.Fatalf("cursor %q: size %d, %v", res.Next, size, err)
		}
		req.Start = &at
	}
}

func comparePositions(a, b store.Position) int {
	switch {
	case Less(a, b):
		return -1
	case Less(b, a):
		return 1
	}
	return 0
}

func positionIn(rows []store.UnspentRow, outputID string) store.Position {
	i := slices.IndexFunc(rows, func(r store.UnspentRow) bool { return r.OutputID == outputID })
	return PositionOf(&rows[i])
}
