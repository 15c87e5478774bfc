package ledgerquery

import (
	"slices"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Stream is one sorted run of rows: the unspent outputs of a kind naming an address in
// a role (unspent_outputs_by_address), or with Address "" every unspent output of the
// kind (unspent_outputs); with Spent, the same of the spent twin (spent_outputs,
// spent_outputs_by_address).
type Stream struct {
	Kind    string // basic, alias, foundry, nft
	Address string
	Role    string // store.Role*; "" with Address ""
	Spent   bool
}

// withSpent adds to each source its spent twin: the same stream of spent outputs over the
// same partitions (a spent row lies in its creation's partition, as its unspent row did).
func withSpent(in []Source) []Source {
	out := slices.Clone(in)
	for _, src := range in {
		src.Stream.Spent = true
		out = append(out, src)
	}
	return out
}

// Anchor is one address-like condition of a filter and the streams whose union holds
// every output it lets through: reading them (and checking the rest in Go) answers the
// query. A query picks the anchor whose streams span the fewest partitions.
type Anchor struct {
	Param   string
	Streams []Stream
}

// Anchors lists the address-like conditions of f over the kinds a route covers, in
// inx-indexer's parameter order (ties go to the first).
func Anchors(kinds []string, f *Filter) []Anchor {
	var out []Anchor
	add := func(param string, addr chain.LocalAddress, roles func(kind string) []string) {
		if addr.IsZero() {
			return
		}
		a := Anchor{Param: param}
		for _, k := range kinds {
			for _, role := range roles(k) {
				a.Streams = append(a.Streams, Stream{Kind: k, Address: addr.Text, Role: role})
			}
		}
		out = append(out, a)
	}
	one := func(role string) func(string) []string { return func(string) []string { return []string{role} } }
	add("address", f.Address, one(store.RoleAddress))
	add("aliasAddress", f.AliasAddress, one(store.RoleAddress))
	add("stateController", f.StateController, one(store.RoleStateController))
	add("governor", f.Governor, one(store.RoleGovernor))
	add("expirationReturnAddress", f.ExpirationReturn, one(store.RoleExpirationReturn))
	add("storageDepositReturnAddress", f.SDRAddress, one(store.RoleDustReturn))
	add("issuer", f.Issuer, one(store.RoleIssuer))
	add("sender", f.Sender, one(store.RoleSender))
	add("unlockableByAddress", f.Unlockable, func(kind string) []string { return UnlockRoles(kind, f.Unlockable) })
	return out
}

// UnlockRoles are the roles in which address a unlocks an output of a kind (see
// unlockableBy). A foundry has one only for an alias address: inx-indexer leaves its
// foundry query out of unlockableByAddress for any other address, so the plan reads no
// foundry stream for it.
func UnlockRoles(kind string, a chain.LocalAddress) []string {
	switch kind {
	case "alias":
		return []string{store.RoleStateController, store.RoleGovernor}
	case "foundry":
		if a.Kind != chain.AddressAlias {
			return nil
		}
		return []string{store.RoleAddress}
	}
	return []string{store.RoleAddress, store.RoleExpirationReturn, store.RoleDustReturn}
}
