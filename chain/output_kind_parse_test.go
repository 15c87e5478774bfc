package chain

import "testing"

// TestParseOutputKind: every named kind reads back from its name; anything else,
// the fallback name of an unnamed kind included, is refused.
func TestParseOutputKind(t *testing.T) {
	for _, k := range []OutputKind{OutputLegacy, OutputBasic, OutputAlias, OutputFoundry, OutputNFT} {
		if got, err := ParseOutputKind(k.String()); err != nil || got != k {
			t.Errorf("%s: %v, %v; want %d", k, got, err, k)
		}
	}
	for _, bad := range []string{"", "Basic", "NFT", "outputKind(2)", "treasury"} {
		if k, err := ParseOutputKind(bad); err == nil {
			t.Errorf("%q: accepted as %d", bad, k)
		}
	}
}
