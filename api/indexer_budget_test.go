package api

import (
	"context"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/indexer"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/ledgerquery"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// testTip26Budget: pages cut short by a tiny read budget still never skip or repeat, in
// either order; with spent (the model then lists spent outputs too) of includeSpent=true.
func testTip26Budget(t *testing.T, e *env, model []unspentModel, spent bool) {
	v := valuesOf(model)
	owner, foundryAlias := localAddress(t, v.owner), localAddress(t, v.foundryAlias)
	yes := true
	for _, tc := range []struct {
		name string
		f    ledgerquery.Filter
		want func(*unspentModel) bool
	}{
		{"tokens", ledgerquery.Filter{HasNativeTokens: &yes}, func(m *unspentModel) bool { return len(m.out.NativeTokens) > 0 }},
		{"unlockable", ledgerquery.Filter{Unlockable: owner}, func(m *unspentModel) bool { return m.unlockableBy(v.owner) }},
		{"unlockable by an alias", ledgerquery.Filter{Unlockable: foundryAlias},
			func(m *unspentModel) bool { return m.unlockableBy(v.foundryAlias) }},
	} {
		var want []string
		for i := range model {
			if tc.want(&model[i]) {
				want = append(want, model[i].id)
			}
		}
		for _, newest := range []bool{false, true} {
			if newest {
				slices.Reverse(want)
			}
			testBudgetPages(t, e, tc.name, tc.f, ledgerquery.Request{Newest: newest, IncludeSpent: spent}, want)
		}
	}
}

// testBudgetPages follows the cursors of filter's pages of 5 under tiny budgets, in the
// order and of the outputs mode asks for, and checks they list want and some page was
// cut short.
func testBudgetPages(t *testing.T, e *env, name string, filter ledgerquery.Filter, mode ledgerquery.Request,
	want []string) {
	t.Helper()
	newest := mode.Newest
	for _, budget := range []ledgerquery.Budget{{Rows: 1, Partitions: 1}, {Rows: 4, Partitions: 2}} {
		var got []string
		cut := 0
		var from *store.Position
		for pages := 0; ; pages++ {
			if pages > 5000 {
				t.Fatalf("%s: no last page", name)
			}
			ans, err := indexer.New(rest.NewReads(e.st), e.st).Tip26Answer(context.Background(), ledgerquery.Request{Kinds: indexer.Tip26GenericKinds,
				Filter: filter, Start: from, PageSize: 5, Budget: budget, Newest: newest, IncludeSpent: mode.IncludeSpent})
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, ans.Items...)
			if ans.Cursor == "" {
				break
			}
			if len(ans.Items) < 5 {
				cut++
			}
			p, _, err := ledgerquery.DecodeSortedCursor(ans.Cursor, newest)
			if err != nil {
				t.Fatal(err)
			}
			from = &p
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s, %+v, budget %+v: %d items, want %d", name, mode, budget, len(got), len(want))
		}
		if cut == 0 {
			t.Errorf("%s, newest %v, budget %+v: no page was cut short", name, newest, budget)
		}
	}
}

// localAddress is a model's address as a parsed filter: its kind and the text the
// tables hold.
func localAddress(t testing.TB, text string) chain.LocalAddress {
	t.Helper()
	a, err := chain.ParseAddress(text)
	if err != nil {
		t.Fatal(err)
	}
	return chain.LocalAddress{Address: a, Text: text}
}
