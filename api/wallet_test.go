package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/api/wallet"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/testsupport/httpcall"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// walletOwners are the addresses an output gives a wallet role, with those roles
// (wallet.OwnerRoles), from the output itself.
func walletOwners(o *chain.Output) map[string][]string {
	out := map[string][]string{}
	add := func(a *chain.Address, role string) {
		if a != nil {
			out[a.Bech32(sim.HRP)] = append(out[a.Bech32(sim.HRP)], role)
		}
	}
	switch o.Kind {
	case chain.OutputBasic, chain.OutputNFT:
		add(o.Address, "address")
		if o.StorageDepositReturn != nil {
			add(&o.StorageDepositReturn.ReturnAddress, "dust_return_address")
		}
		if o.Expiration != nil {
			add(&o.Expiration.ReturnAddress, "expiration_return_address")
		}
	case chain.OutputAlias:
		add(o.StateController, "state_controller")
		add(o.Governor, "governor")
	case chain.OutputFoundry:
		add(o.Address, "address")
	}
	for a := range out {
		slices.Sort(out[a])
	}
	return out
}

// walletItem is what an item says of ownership: "outputId address roles".
func walletItem(id, address string, roles []string) string {
	return id + " " + address + " " + strings.Join(roles, ",")
}

// modelWallet is the items a sync of addresses answers at n: for each address in turn,
// the model's outputs at n (every one created by n with includeSpent) it owns, in
// TIP-26 order.
func (e *env) modelWallet(n uint32, includeSpent bool, addresses []string) []string {
	var out []string
	outputs := e.modelOutputs(n, includeSpent)
	for _, a := range addresses {
		for _, m := range outputs {
			if roles, ok := walletOwners(m.out)[a]; ok {
				out = append(out, walletItem(m.id, a, roles))
			}
		}
	}
	return out
}

// postWallet posts body to the sync route and decodes a 200 answer into out.
func (e *env) postWallet(t testing.TB, body any, out any) (int, []byte) {
	t.Helper()
	raw, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	resp, answer := httpcall.Post(t, e.srv.URL+wallet.Prefix+"/outputs", "application/json", bytes.NewReader(raw))
	if resp.StatusCode == http.StatusOK && out != nil {
		if err := json.Unmarshal(answer, out); err != nil {
			t.Fatalf("POST sync: %v\n%s", err, answer)
		}
	}
	return resp.StatusCode, answer
}

// walletWalk pages through a sync of addresses, size items a page, and wants every page at
// ledger index n; it returns the items and the answers' outputs and metadata by output ID.
func (e *env) walletWalk(t *testing.T, addresses []string, asked *uint32, includeSpent bool, size int, n uint32) (
	[]string, map[string]wallet.ItemJSON) {
	t.Helper()
	var got []string
	byID := map[string]wallet.ItemJSON{}
	body := map[string]any{"addresses": addresses, "includeSpent": includeSpent, "pageSize": size}
	if asked != nil {
		body["ledgerIndex"] = *asked
	}
	for pages := 0; ; pages++ {
		var ans wallet.OutputsJSON
		if code, raw := e.postWallet(t, body, &ans); code != http.StatusOK {
			t.Fatalf("POST sync %v: status %d: %s", body, code, raw)
		}
		if ans.LedgerIndex != n || ans.Items == nil || pages > 1000 {
			t.Fatalf("POST sync: ledgerIndex %d (want %d), items %v, page %d", ans.LedgerIndex, n, ans.Items, pages)
		}
		for _, it := range ans.Items {
			got = append(got, walletItem(it.OutputID, it.Address, it.Roles))
			byID[it.OutputID] = it
		}
		if len(ans.Items) > size || len(ans.Items) < size && ans.Cursor != "" {
			t.Fatalf("POST sync: %d items on a page of %d (cursor %q)", len(ans.Items), size, ans.Cursor)
		}
		if ans.Cursor == "" {
			return got, byID
		}
		body["cursor"] = ans.Cursor
	}
}

// testWalletSync: a sync of every address the chain's outputs name, and of a part of
// them, pages through exactly the model's owned outputs at the ledger index and at
// earlier ones (with includeSpent, every one created by then), each with the output and
// the metadata GET /api/core/v2/outputs/{id}?ledgerIndex=N answers.
func testWalletSync(t *testing.T, e *env) {
	all := map[string]bool{}
	for _, m := range e.modelOutputs(e.truth.UpTo, true) {
		for a := range walletOwners(m.out) {
			all[a] = true
		}
	}
	every := slices.Sorted(maps.Keys(all))
	checkWalletRolesCovered(t, e)
	some := every[:len(every)/3]
	checked := 0
	for _, n := range append(asOfIndexes(e), e.truth.UpTo) {
		asked := &n
		if n == e.truth.UpTo {
			asked = nil
		}
		for _, spent := range []bool{false, true} {
			for _, addrs := range [][]string{every, some} {
				want := e.modelWallet(n, spent, addrs)
				for _, size := range []int{7, 1000} {
					got, byID := e.walletWalk(t, addrs, asked, spent, size, n)
					if !slices.Equal(got, want) {
						t.Fatalf("sync of %d addresses at %d (includeSpent %t, pageSize %d): %d items, want %d\n"+
							"got  %v\nwant %v", len(addrs), n, spent, size, len(got), len(want), got, want)
					}
					if size == 1000 && len(addrs) == len(every) {
						checked += e.checkWalletOutputs(t, byID, n)
					}
				}
			}
		}
	}
	t.Logf("%d addresses; %d outputs checked against the core route", len(every), checked)
}

// checkWalletRolesCovered fails unless the chain holds an output of every kind in each of
// its owning roles (wallet.OwnerRoles), but the return roles of NFTs: the simulator gives
// storage deposit return and expiration conditions to basic outputs only.
func checkWalletRolesCovered(t *testing.T, e *env) {
	t.Helper()
	seen := map[string]bool{}
	for _, m := range e.modelOutputs(e.truth.UpTo, true) {
		for _, roles := range walletOwners(m.out) {
			for _, r := range roles {
				seen[m.kind+"/"+r] = true
			}
		}
	}
	for kind, roles := range wallet.OwnerRoles {
		for _, r := range roles {
			if !seen[kind.String()+"/"+r] && (kind != chain.OutputNFT || r == "address") {
				t.Errorf("no %s output names an address as %s: the sync of that role is not checked", kind, r)
			}
		}
	}
}

// checkWalletOutputs compares each item's output and metadata with the core route's at n.
func (e *env) checkWalletOutputs(t *testing.T, byID map[string]wallet.ItemJSON, n uint32) int {
	t.Helper()
	for id, it := range byID {
		var core tip25.OutputResponseJSON
		e.mustGet(t, fmt.Sprintf("/api/core/v2/outputs/%s?ledgerIndex=%d", id, n), &core)
		wantOut, _ := json.Marshal(core.Output)
		gotOut, _ := json.Marshal(it.Output)
		wantMeta, _ := json.Marshal(core.Metadata)
		gotMeta, _ := json.Marshal(it.Metadata)
		if !bytes.Equal(gotOut, wantOut) || !bytes.Equal(gotMeta, wantMeta) {
			t.Fatalf("output %s at %d:\n got  %s %s\n core %s %s", id, n, gotOut, gotMeta, wantOut, wantMeta)
		}
	}
	return len(byID)
}

// testWalletErrors: each bad body is refused with a status and a detail naming its fault.
func testWalletErrors(t *testing.T, e *env) {
	addr := chain.Address{}.Bech32(sim.HRP)
	many := make([]string, wallet.MaxAddresses+1)
	for i := range many {
		many[i] = addr
	}
	above := e.truth.UpTo + 1
	cases := []struct {
		body   any
		status int
		detail string
	}{
		{map[string]any{"addresses": many}, http.StatusBadRequest, "addresses: 1001 addresses; give 1 to 1000"},
		{map[string]any{"addresses": []string{}}, http.StatusBadRequest, "addresses: 0 addresses"},
		{map[string]any{"addresses": []string{addr, addr, "smr1notanaddress"}}, http.StatusBadRequest, "addresses[2]:"},
		{map[string]any{"addresses": []string{addr}, "pageSize": 0}, http.StatusBadRequest, "pageSize: 0; give 1 to 1000"},
		{map[string]any{"addresses": []string{addr}, "cursor": "nope"}, http.StatusBadRequest, `cursor: "nope"`},
		{map[string]any{"addresses": []string{addr}, "ledgerIndex": above}, http.StatusBadRequest,
			fmt.Sprintf("ledgerIndex: %d is above the ledger index", above)},
		{map[string]any{"addresses": []string{addr}, "limit": 5}, http.StatusBadRequest, `unknown field "limit"`},
		{map[string]any{"addresses": strings.Repeat("x", 300<<10)}, http.StatusRequestEntityTooLarge, "body: over"},
	}
	for _, c := range cases {
		code, raw := e.postWallet(t, c.body, nil)
		var ans struct{ Detail string }
		if err := json.Unmarshal(raw, &ans); err != nil || code != c.status || !strings.Contains(ans.Detail, c.detail) {
			t.Errorf("body %.80v: %d %s, want %d naming %q", c.body, code, raw, c.status, c.detail)
		}
	}
	// A cursor walks its ledger index: asking for another one with it is refused.
	var first wallet.OutputsJSON
	e.postWallet(t, map[string]any{"addresses": []string{e.busiest(chain.OutputBasic, "address")}, "pageSize": 1}, &first)
	if first.Cursor == "" {
		t.Fatal("a page of one output of the busiest address has no cursor")
	}
	busiest := []string{e.busiest(chain.OutputBasic, "address")}
	code, raw := e.postWallet(t, map[string]any{"addresses": busiest, "cursor": first.Cursor, "ledgerIndex": 1}, nil)
	if code != http.StatusBadRequest || !strings.Contains(string(raw), "the body asks for 1") {
		t.Errorf("a cursor with another ledgerIndex: %d %s", code, raw)
	}
	// A cursor walks its addresses: with others (or includeSpent) it is refused.
	for _, body := range []map[string]any{{"addresses": []string{addr}, "cursor": first.Cursor},
		{"addresses": busiest, "cursor": first.Cursor, "includeSpent": true}} {
		if code, raw := e.postWallet(t, body, nil); code != http.StatusBadRequest || !strings.Contains(string(raw), "other addresses") {
			t.Errorf("a cursor with %v: %d %s", body, code, raw)
		}
	}
	// A body is one JSON object.
	resp, raw := httpcall.Post(t, e.srv.URL+wallet.Prefix+"/outputs", "application/json",
		strings.NewReader(`{"addresses": ["`+addr+`"]} {"more": 1}`))
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(raw), "more follows it") {
		t.Errorf("a body with more after its object: %d %s", resp.StatusCode, raw)
	}
}

// TestWalletSyncRowsWithoutOutputs: ledger rows written before they carried their outputs
// (output_data, message_id and spent_by null, as after migration 000014 on an older
// keyspace) give the same sync, each output then read from its output table.
func TestWalletSyncRowsWithoutOutputs(t *testing.T) {
	e := newEnv(t, testOptions, 20)
	all := map[string]bool{}
	for _, m := range e.modelOutputs(e.truth.UpTo, true) {
		for a := range walletOwners(m.out) {
			all[a] = true
		}
	}
	every := slices.Sorted(maps.Keys(all))
	want, wantByID := e.walletWalk(t, every, nil, true, 1000, e.truth.UpTo)
	sess, err := cql.Open(e.cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	cleared := 0
	for _, table := range []string{"unspent_outputs_by_address", "spent_outputs_by_address"} {
		cleared += clearCarried(t, sess.Gocql(), table)
	}
	got, gotByID := e.walletWalk(t, every, nil, true, 1000, e.truth.UpTo)
	wantJSON, _ := json.Marshal(wantByID)
	gotJSON, _ := json.Marshal(gotByID)
	if !slices.Equal(got, want) || !bytes.Equal(gotJSON, wantJSON) {
		t.Fatalf("the sync over %d rows without their outputs differs:\n got  %s\n want %s", cleared, gotJSON, wantJSON)
	}
	t.Logf("%d addresses, %d items, the same over %d rows without their outputs", len(every), len(got), cleared)
	if cleared == 0 || len(got) == 0 {
		t.Fatal("nothing cleared or synced: the test shows nothing")
	}
}

// clearCarried sets what the rows of a by-address ledger table carry of their outputs to
// null, row by row, and returns how many rows it cleared.
func clearCarried(t *testing.T, s *gocql.Session, table string) int {
	t.Helper()
	extra := ""
	if strings.HasPrefix(table, "spent") {
		extra = ", spent_by = null"
	}
	iter := s.Query("SELECT address, ms_range_id, output_kind, role, created_at, output_id FROM " + table).Iter()
	var (
		addr, kind, role, id string
		rng                  int
		at                   int64
		n                    int
	)
	for iter.Scan(&addr, &rng, &kind, &role, &at, &id) {
		if err := s.Query("UPDATE "+table+" SET output_data = null, message_id = null"+extra+
			" WHERE address = ? AND ms_range_id = ? AND output_kind = ? AND role = ? AND created_at = ? AND output_id = ?",
			addr, rng, kind, role, at, id).Exec(); err != nil {
			t.Fatal(err)
		}
		n++
	}
	if err := iter.Close(); err != nil {
		t.Fatal(err)
	}
	return n
}
