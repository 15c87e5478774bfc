package rest

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// TestBech32CacheAnswersWhatBech32Does: the cache answers a.Bech32(hrp) whether the slot
// holds that address under that HRP (a hit), another address of the same slot under the
// same HRP, or the same address under another HRP.
func TestBech32CacheAnswersWhatBech32Does(t *testing.T) {
	var c bech32Cache
	a := chain.Address{Kind: chain.AddressEd25519, ID: [32]byte{1, 2, 3}}
	b := a
	b.ID[31] = 9 // same slot (first bytes), another address
	alias := chain.Address{Kind: chain.AddressAlias, ID: a.ID}
	for _, hrp := range []string{"smr", "rms", "iota"} {
		for _, x := range []chain.Address{a, b, alias, a} {
			for range 2 { // the second call reads what the first one stored
				if got, want := c.Text(&x, hrp), x.Bech32(hrp); got != want {
					t.Fatalf("text(%s, %s) = %s, want %s", x.Hex(), hrp, got, want)
				}
			}
		}
	}
}

// TestBech32CacheEmptySlotIsNoHit: a slot never written holds the zero address under the
// empty HRP with no text; asking for exactly that encodes it rather than answering "".
func TestBech32CacheEmptySlotIsNoHit(t *testing.T) {
	var c bech32Cache
	var zero chain.Address
	if got, want := c.Text(&zero, ""), zero.Bech32(""); got != want || got == "" {
		t.Fatalf("zero address under the empty HRP: %q, want %q", got, want)
	}
}
