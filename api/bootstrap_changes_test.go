package api

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/explorer"
	"github.com/stardust-indexer/stardust-indexer/api/indexer"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

// addressState is one address's TIP-26 lists (by route) and balance at a ledger index.
type addressState struct {
	lists   map[string]map[string]bool
	balance int64
}

// checkStatesAt17339: every address the snapshot file checks has at 17339 the lists and
// the balance of its 17338 state with 17339's ledger changes applied (the changes as
// inx-chronicle recorded them, each output decoded for the address a route names); the
// same rule applied again with 17340's changes gives the file's own 17340 state, which
// checks the rule.
func checkStatesAt17339(t *testing.T, e *env, want *snapshotExpectation) {
	set, err := realdata.Load()
	if err != nil {
		t.Fatal(err)
	}
	at := map[string]addressState{}
	for addr, x := range want.States["17338"].RealOwners {
		at[addr] = stateOf(t, x)
	}
	for addr, x := range want.States["17338"].Synthetic {
		at[addr] = stateOf(t, x)
	}
	apply(t, at, set.Milestones[17339])
	checked, balances := 0, 0
	for addr, s := range at {
		for route, ids := range s.lists {
			kind, param, _ := strings.Cut(route, "?")
			got := pageAll(t, e, fmt.Sprintf("%s/outputs/%s?%s=%s&pageSize=2&ledgerIndex=17339", indexer.Tip26Prefix,
				kind, param, addr))
			if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(maps.Keys(ids))) {
				t.Errorf("%s %s=%s at 17339: %v, want %v", kind, param, addr, got, slices.Sorted(maps.Keys(ids)))
			}
			checked++
		}
		if x, ok := want.States["17338"].RealOwners[addr]; ok && x.BalanceChecked {
			var b explorer.BalanceJSON
			e.mustGet(t, explorer.ExplorerPrefix+"/balance/"+addr+"?ledgerIndex=17339", &b)
			if b.TotalBalance != strconv.FormatInt(s.balance, 10) {
				t.Errorf("balance of %s at 17339: %s, want %d", addr, b.TotalBalance, s.balance)
			}
			balances++
		}
	}
	apply(t, at, set.Milestones[17340])
	for addr, x := range want.States["17340"].RealOwners {
		if s, tracked := at[addr]; tracked && x.BalanceChecked && strconv.FormatInt(s.balance, 10) != x.OwnedAmount {
			t.Fatalf("the rule gives %s %d at 17340, the file %s: the 17339 check is not to be trusted", addr,
				s.balance, x.OwnedAmount)
		}
	}
	if checked == 0 || balances == 0 {
		t.Fatalf("%d lists and %d balances checked at 17339: the test needs both", checked, balances)
	}
}

func stateOf(t *testing.T, x addressExpectation) addressState {
	t.Helper()
	s := addressState{lists: map[string]map[string]bool{}}
	for route, ids := range x.Lists {
		s.lists[route] = map[string]bool{}
		for _, id := range ids {
			s.lists[route][id] = true
		}
	}
	if x.OwnedAmount != "" {
		n, err := strconv.ParseInt(x.OwnedAmount, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		s.balance = n
	}
	return s
}

// apply moves the tracked addresses' states by a milestone's ledger changes: each
// consumed output leaves the lists of the addresses it names and its owner's balance
// (TIP-18: the expiration return address once expired at the milestone's time), each
// created one joins them.
func apply(t *testing.T, at map[string]addressState, m *realdata.Milestone) {
	t.Helper()
	move := func(o realdata.Output, sign int64) {
		out, err := chain.DecodeOutput(o.Raw)
		if err != nil {
			t.Fatal(err)
		}
		id := chain.OutputID(o.OutputID).String()
		owner := routeAddresses(&out)[ownerRoute(out.Kind)]
		if x := out.Expiration; x != nil && m.Timestamp >= x.UnixTime {
			owner = x.ReturnAddress.Bech32("smr") // TIP-18: expired, the return address's
		}
		if s, ok := at[owner]; ok {
			s.balance += sign * int64(out.Amount)
			at[owner] = s
		}
		for route, addr := range routeAddresses(&out) {
			s, ok := at[addr]
			if !ok {
				continue
			}
			if s.lists[route] == nil {
				s.lists[route] = map[string]bool{}
			}
			if sign > 0 {
				s.lists[route][id] = true
			} else {
				delete(s.lists[route], id)
			}
		}
	}
	for _, o := range m.Consumed {
		move(o.Output, -1)
	}
	for _, o := range m.Created {
		move(o, 1)
	}
}

// routeAddresses are the file's routes an output is listed on, with the address each
// names.
func routeAddresses(o *chain.Output) map[string]string {
	out := map[string]string{}
	add := func(route string, a *chain.Address) {
		if a != nil {
			out[route] = a.Bech32("smr")
		}
	}
	switch o.Kind {
	case chain.OutputBasic:
		add("basic?address", o.Address)
	case chain.OutputNFT:
		add("nft?address", o.Address)
	case chain.OutputFoundry:
		add("foundry?aliasAddress", o.Address)
	case chain.OutputAlias:
		add("alias?stateController", o.StateController)
		add("alias?governor", o.Governor)
	}
	return out
}

// ownerRoute is the route whose address owns an output of kind (the balance's owner).
func ownerRoute(k chain.OutputKind) string {
	return map[chain.OutputKind]string{chain.OutputBasic: "basic?address", chain.OutputNFT: "nft?address",
		chain.OutputFoundry: "foundry?aliasAddress", chain.OutputAlias: "alias?stateController"}[k]
}
