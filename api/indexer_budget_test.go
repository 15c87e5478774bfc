package api

import (
	"context"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/ledgerquery"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// testTip26Budget: pages cut short by a tiny read budget still never skip or repeat.
func testTip26Budget(t *testing.T, e *env, model []unspentModel) {
	v := valuesOf(model)
	yes := true
	for _, tc := range []struct {
		name string
		f    ledgerquery.Filter
		want func(*unspentModel) bool
	}{
		{"tokens", ledgerquery.Filter{HasNativeTokens: &yes}, func(m *unspentModel) bool { return len(m.out.NativeTokens) > 0 }},
		{"unlockable", ledgerquery.Filter{Unlockable: v.owner}, func(m *unspentModel) bool { return m.unlockableBy(v.owner) }},
		{"unlockable by an alias", ledgerquery.Filter{Unlockable: v.foundryAlias},
			func(m *unspentModel) bool { return m.unlockableBy(v.foundryAlias) }},
	} {
		var want []string
		for i := range model {
			if tc.want(&model[i]) {
				want = append(want, model[i].id)
			}
		}
		for _, budget := range []ledgerquery.Budget{{Rows: 1, Partitions: 1}, {Rows: 4, Partitions: 2}} {
			var got []string
			cut := 0
			var cursor string
			for pages := 0; ; pages++ {
				if pages > 5000 {
					t.Fatalf("%s: no last page", tc.name)
				}
				f := tc.f
				var from *store.Position
				if cursor != "" {
					p, _, err := ledgerquery.DecodeCursor(cursor)
					if err != nil {
						t.Fatal(err)
					}
					from = &p
				}
				ans, err := e.api.tip26Query(context.Background(), tip26GenericKinds, &f, from, 5, budget)
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
				cursor = ans.Cursor
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s, budget %+v: %d items, want %d", tc.name, budget, len(got), len(want))
			}
			if cut == 0 {
				t.Errorf("%s, budget %+v: no page was cut short", tc.name, budget)
			}
		}
	}
}
