package ledgerquery

import (
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// TestUnlockableFoundries: unlockableByAddress reaches a foundry only through an alias
// address, its alias's: the plan reads foundry streams for an alias address alone, and a
// foundry row matches only its own alias.
func TestUnlockableFoundries(t *testing.T) {
	alias := chain.AliasAddress(chain.AliasID{7}).Local("smr")
	other := chain.AliasAddress(chain.AliasID{8}).Local("smr")
	ed := chain.Address{Kind: chain.AddressEd25519, ID: [32]byte{7}}.Local("smr")
	kinds := []string{"basic", "alias", "foundry", "nft"}
	foundryStreams := func(a chain.LocalAddress) []Stream {
		var out []Stream
		for _, an := range Anchors(kinds, &Filter{Unlockable: a}) {
			for _, s := range an.Streams {
				if s.Kind == "foundry" {
					out = append(out, s)
				}
			}
		}
		return out
	}
	if got, want := foundryStreams(alias), []Stream{{Kind: "foundry", Address: alias.Text, Role: store.RoleAddress}}; !slices.Equal(got, want) {
		t.Errorf("alias address: foundry streams %v, want %v", got, want)
	}
	if got := foundryStreams(ed); len(got) != 0 {
		t.Errorf("Ed25519 address: foundry streams %v, want none", got)
	}
	foundry := store.UnspentRow{Kind: "foundry", CreatedAt: 100, Owner: alias.Text, NativeTokenCount: 1}
	for _, tc := range []struct {
		name string
		f    Filter
		want bool
	}{
		{"its alias", Filter{Unlockable: alias}, true},
		{"another alias", Filter{Unlockable: other}, false},
		{"an Ed25519 address", Filter{Unlockable: ed}, false},
		{"with tokens", Filter{Unlockable: alias, HasNativeTokens: ptr(true)}, true},
		{"without tokens", Filter{HasNativeTokens: ptr(false)}, false},
		{"created before", Filter{CreatedBefore: ptr(int64(100))}, false},
	} {
		if got := tc.f.Match(&foundry); got != tc.want {
			t.Errorf("foundry, %s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
