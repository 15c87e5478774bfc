package api

import (
	"net/url"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/indexer"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/ledgerquery"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// testTip26GenericFoundries: the generic route pages through foundries as through the
// other kinds (a page ends just before each foundry, its cursor naming it, and the next
// page starts with it), and its filters leave foundries out as inx-indexer's do.
func testTip26GenericFoundries(t *testing.T, e *env, model []unspentModel) {
	n := 0
	for i := 1; i < len(model); i++ {
		if model[i].kind == "foundry" {
			checkFoundryBoundary(t, e, model, i)
			n++
		}
	}
	if n == 0 {
		t.Fatal("no unspent foundry after the first output: no page boundary to check")
	}
	v := valuesOf(model)
	ed := ed25519Owner(t, model)
	first, last := foundryTimes(model)
	for _, c := range []struct {
		name, query string
		want        func(*unspentModel) bool
		foundries   bool // whether the answer holds foundries
	}{
		{"no filter", "", func(*unspentModel) bool { return true }, true},
		{"their alias", "unlockableByAddress=" + url.QueryEscape(v.foundryAlias),
			func(m *unspentModel) bool { return m.unlockableBy(v.foundryAlias) }, true},
		{"an Ed25519 address", "unlockableByAddress=" + url.QueryEscape(ed),
			func(m *unspentModel) bool { return m.unlockableBy(ed) }, false},
		{"created before the first foundry", "createdBefore=" + rest.Itoa(int(first)),
			func(m *unspentModel) bool { return m.createdAt < first }, false},
		{"created after the last foundry", "createdAfter=" + rest.Itoa(int(last)),
			func(m *unspentModel) bool { return m.createdAt > last }, false},
	} {
		if n := checkGenericFoundries(t, e, model, c.query, c.want); (n > 0) != c.foundries {
			t.Errorf("%s: %d foundries answered, want some: %v", c.name, n, c.foundries)
		}
	}
}

// checkFoundryBoundary pages from the output before model[i], a foundry, one item a page.
func checkFoundryBoundary(t *testing.T, e *env, model []unspentModel, i int) {
	t.Helper()
	at := func(j int) string {
		return ledgerquery.EncodeCursor(store.Position{CreatedAt: model[j].createdAt, OutputID: model[j].id}, 1)
	}
	var before, page indexer.OutputsJSON
	e.mustGet(t, indexer.Tip26Prefix+"/outputs?cursor="+at(i-1), &before)
	if !slices.Equal(before.Items, []string{model[i-1].id}) || before.Cursor != at(i) {
		t.Errorf("the page before foundry %s: items %v cursor %q, want [%s] cursor %q", model[i].id, before.Items,
			before.Cursor, model[i-1].id, at(i))
		return
	}
	e.mustGet(t, indexer.Tip26Prefix+"/outputs?cursor="+before.Cursor, &page)
	want := ""
	if i+1 < len(model) {
		want = at(i + 1)
	}
	if !slices.Equal(page.Items, []string{model[i].id}) || page.Cursor != want {
		t.Errorf("the page of foundry %s: items %v cursor %q, want it and cursor %q", model[i].id, page.Items,
			page.Cursor, want)
	}
}

// checkGenericFoundries walks the generic route with query at two page sizes, compares
// with the model, and returns how many foundries it answered.
func checkGenericFoundries(t *testing.T, e *env, model []unspentModel, query string, keep func(*unspentModel) bool) int {
	t.Helper()
	var want []string
	kinds := map[string]string{}
	for i := range model {
		kinds[model[i].id] = model[i].kind
		if keep(&model[i]) {
			want = append(want, model[i].id)
		}
	}
	if len(want) == 0 {
		t.Errorf("GET /outputs?%s: the model expects nothing: the check would be thin", query)
	}
	var got []string
	for _, size := range []int{3, 100} {
		if got = e.tip26Walk(t, indexer.Tip26Prefix+"/outputs?"+query, size); !slices.Equal(got, want) {
			t.Errorf("GET /outputs?%s pageSize %d: %d items, want %d", query, size, len(got), len(want))
		}
	}
	n := 0
	for _, id := range got {
		if kinds[id] == "foundry" {
			n++
		}
	}
	return n
}

// ed25519Owner is the Ed25519 address owning the most unspent basic outputs.
func ed25519Owner(t *testing.T, model []unspentModel) string {
	t.Helper()
	n := map[string]int{}
	best := ""
	for i := range model {
		if model[i].kind != "basic" || model[i].out.Address == nil || model[i].out.Address.Kind != chain.AddressEd25519 {
			continue
		}
		a := model[i].out.Address.Bech32(sim.HRP)
		if n[a]++; n[a] > n[best] || (n[a] == n[best] && a < best) {
			best = a
		}
	}
	if best == "" {
		t.Fatal("no unspent basic output owned by an Ed25519 address")
	}
	return best
}

// foundryTimes are the creation times of the oldest and newest unspent foundries.
func foundryTimes(model []unspentModel) (first, last int64) {
	for i := range model {
		if model[i].kind == "foundry" {
			if first == 0 {
				first = model[i].createdAt
			}
			last = model[i].createdAt
		}
	}
	return first, last
}
