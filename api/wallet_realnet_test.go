package api

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/indexer"
	"github.com/stardust-indexer/stardust-indexer/chain"
)

// tip26RoleLists are the TIP-26 lists whose union is what an address owns for a wallet,
// each with the role it names the address in.
var tip26RoleLists = []struct{ route, param, role string }{
	{"basic", "address", "address"}, {"basic", "storageDepositReturnAddress", "dust_return_address"},
	{"basic", "expirationReturnAddress", "expiration_return_address"},
	{"nft", "address", "address"}, {"nft", "storageDepositReturnAddress", "dust_return_address"},
	{"nft", "expirationReturnAddress", "expiration_return_address"},
	{"alias", "stateController", "state_controller"}, {"alias", "governor", "governor"},
	{"foundry", "aliasAddress", "address"},
}

// checkWalletSyncReal: a sync of every owner the snapshot file checks, at 17338, 17339
// and 17340, with and without spent outputs, answers exactly the union of their TIP-26
// lists at that index, each output with the metadata the core route answers there.
func checkWalletSyncReal(t *testing.T, e *env, want *snapshotExpectation) {
	owners := map[string]bool{}
	for _, s := range want.States {
		for a := range s.RealOwners {
			owners[a] = true
		}
		for a := range s.Synthetic {
			owners[a] = true
		}
	}
	addrs := slices.Sorted(maps.Keys(owners))
	roles := map[string]int{}
	for _, n := range []uint32{17338, 17339, 17340} {
		for _, spent := range []bool{false, true} {
			expected := e.tip26Owned(t, addrs, n, spent, roles)
			asked := n
			got, byID := e.walletWalk(t, addrs, &asked, spent, 10, n)
			slices.Sort(got)
			if !slices.Equal(got, expected) {
				t.Fatalf("sync of %d owners at %d (includeSpent %t): %d items, TIP-26 %d\ngot  %v\nwant %v",
					len(addrs), n, spent, len(got), len(expected), got, expected)
			}
			e.checkWalletOutputs(t, byID, n)
		}
	}
	t.Logf("%d owners; outputs per role over the TIP-26 lists: %v", len(addrs), roles)
	if roles["address"] == 0 || roles["state_controller"] == 0 {
		t.Fatalf("the data names no owner in the main roles: %v", roles)
	}
}

// tip26Owned is the items a sync of addrs answers at n, from TIP-26's lists at n: one
// per output and owning address, with the roles, sorted.
func (e *env) tip26Owned(t *testing.T, addrs []string, n uint32, spent bool, roles map[string]int) []string {
	t.Helper()
	owned := map[string][]string{} // "outputId address" -> roles
	for _, a := range addrs {
		for _, l := range tip26RoleLists {
			if l.route == "foundry" && !isAliasBech32(a) {
				continue // TIP-26 takes an alias address there only
			}
			path := fmt.Sprintf("%s/outputs/%s?%s=%s&ledgerIndex=%d", indexer.Tip26Prefix, l.route, l.param, a, n)
			if spent {
				path += "&includeSpent=true"
			}
			for _, id := range e.tip26WalkAt(t, path, 100, n) {
				key := id + " " + a
				if !slices.Contains(owned[key], l.role) {
					owned[key] = append(owned[key], l.role)
					roles[l.role]++
				}
			}
		}
	}
	out := make([]string, 0, len(owned))
	for key, rs := range owned {
		slices.Sort(rs)
		id, a, _ := strings.Cut(key, " ")
		out = append(out, walletItem(id, a, rs))
	}
	slices.Sort(out)
	return out
}

func isAliasBech32(a string) bool {
	addr, err := chain.ParseAddress(a)
	return err == nil && addr.Kind == chain.AddressAlias
}
