package chain

import (
	"testing"
)

// The names types print as (logs, errors, the database's text columns).

func TestStateNames(t *testing.T) {
	names := map[InclusionState]string{NoTransaction: "noTransaction", Conflicting: "conflicting", Included: "included"}
	for s, want := range names {
		if s.String() != want {
			t.Errorf("%d: %s, want %s", s, s, want)
		}
	}
	if ConflictInputAlreadySpent.String() != "inputUTXOAlreadySpent" ||
		ConflictSemanticValidationFailed.String() != "semanticValidationFailed" {
		t.Error("conflict reason names")
	}
	for r := 0; r <= 255; r++ {
		known := ConflictReason(r).Known()
		if want := r <= 12 || r == 255; known != want {
			t.Errorf("reason %d known=%v", r, known)
		}
	}
}

func TestKindNames(t *testing.T) {
	cases := []struct{ got, want string }{
		{OutputLegacy.String(), "legacy"}, {OutputBasic.String(), "basic"}, {OutputAlias.String(), "alias"},
		{OutputFoundry.String(), "foundry"}, {OutputNFT.String(), "nft"}, {OutputKind(2).String(), "outputKind(2)"},
		{UnlockSignature.String(), "signature"}, {UnlockReference.String(), "reference"}, {UnlockAlias.String(), "alias"},
		{UnlockNFT.String(), "nft"}, {UnlockKind(4).String(), "unknown"},
		{AddressEd25519.String(), "ed25519"}, {AddressAlias.String(), "alias"}, {AddressNFT.String(), "nft"},
		{AddressKind(1).String(), "addressKind(1)"}, {InclusionState(3).String(), "inclusionState(3)"},
		{ConflictReason(13).String(), "conflictReason(13)"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}
