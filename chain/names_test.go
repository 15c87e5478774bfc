package chain_test

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// The names types print as (logs, errors, the database's text columns).

func TestStateNames(t *testing.T) {
	names := map[chain.InclusionState]string{chain.NoTransaction: "noTransaction", chain.Conflicting: "conflicting", chain.Included: "included"}
	for s, want := range names {
		if s.String() != want {
			t.Errorf("%d: %s, want %s", s, s, want)
		}
	}
	if chain.ConflictInputAlreadySpent.String() != "inputUTXOAlreadySpent" ||
		chain.ConflictSemanticValidationFailed.String() != "semanticValidationFailed" {
		t.Error("conflict reason names")
	}
	for r := 0; r <= 255; r++ {
		known := chain.ConflictReason(r).Known()
		if want := r <= 12 || r == 255; known != want {
			t.Errorf("reason %d known=%v", r, known)
		}
	}
}

func TestKindNames(t *testing.T) {
	cases := []struct{ got, want string }{
		{chain.OutputLegacy.String(), "legacy"}, {chain.OutputBasic.String(), "basic"}, {chain.OutputAlias.String(), "alias"},
		{chain.OutputFoundry.String(), "foundry"}, {chain.OutputNFT.String(), "nft"}, {chain.OutputKind(2).String(), "outputKind(2)"},
		{chain.UnlockSignature.String(), "signature"}, {chain.UnlockReference.String(), "reference"}, {chain.UnlockAlias.String(), "alias"},
		{chain.UnlockNFT.String(), "nft"}, {chain.UnlockKind(4).String(), "unknown"},
		{chain.AddressEd25519.String(), "ed25519"}, {chain.AddressAlias.String(), "alias"}, {chain.AddressNFT.String(), "nft"},
		{chain.AddressKind(1).String(), "addressKind(1)"}, {chain.InclusionState(3).String(), "inclusionState(3)"},
		{chain.ConflictReason(13).String(), "conflictReason(13)"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}
