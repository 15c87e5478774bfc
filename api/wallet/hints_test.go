package wallet

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// An entry serves only a request that finds the ledger as the entry's read found it: a
// new milestone, a backfill below since or a bootstrap makes the address's hints read
// again; a full generation moves to the older one, which still serves.
func TestHintCacheServesOneLedgerState(t *testing.T) {
	c := newHintCache()
	hints := []store.AddressHint{{OutputKind: "basic", Variant: "address", Range: 3}}
	at := ledgerState{tip: 100, since: 10}
	c.put("a", hintEntry{hints: hints, state: at})
	if got, ok := c.get("a", at); !ok || len(got) != 1 {
		t.Fatalf("same state: %v %t", got, ok)
	}
	for _, other := range []ledgerState{{tip: 101, since: 10}, {tip: 100, since: 9}, {tip: 100, since: 10, bootstrap: 50}} {
		if _, ok := c.get("a", other); ok {
			t.Errorf("state %+v served the entry read in %+v", other, at)
		}
	}
	if _, ok := c.get("b", at); ok {
		t.Error("an address never read is served")
	}
	for i := range hintCacheSize {
		c.put(string(rune('c'+i%1000))+string(rune(i)), hintEntry{state: at})
	}
	if _, ok := c.get("a", at); !ok {
		t.Error("the older generation lost its entry at the first swap")
	}
}
