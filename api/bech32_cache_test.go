package api

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

func TestBech32CacheAnswersWhatBech32Does(t *testing.T) {
	var c bech32Cache
	a := chain.Address{Kind: chain.AddressEd25519, ID: [32]byte{1, 2, 3}}
	b := a
	b.ID[31] = 9 // same slot (first bytes), another address
	alias := chain.Address{Kind: chain.AddressAlias, ID: a.ID}
	for range 2 { // the second pass reads what the first one stored
		for _, x := range []chain.Address{a, b, alias} {
			for _, hrp := range []string{"smr", "rms", "iota"} {
				if got, want := c.text(&x, hrp), x.Bech32(hrp); got != want {
					t.Fatalf("text(%s, %s) = %s, want %s", x.Hex(), hrp, got, want)
				}
			}
		}
	}
}
