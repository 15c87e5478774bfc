package ledgerquery

import (
	"errors"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// TestAsOf: the ledger index asked for is answered at, an earlier one reads the spent
// twin, one above the ledger index is refused by name, and one below the coverage's
// since is not complete.
func TestAsOf(t *testing.T) {
	idx := func(n uint32) *uint32 { return &n }
	for _, c := range []struct {
		asked          *uint32
		at             uint32
		past, complete bool
		above          bool
	}{
		{asked: nil, at: 100, complete: true},
		{asked: idx(100), at: 100, complete: true},
		{asked: idx(60), at: 60, past: true, complete: true},
		{asked: idx(49), at: 49, past: true},
		{asked: idx(101), above: true},
	} {
		cov := store.LedgerCoverage{Since: 50, Index: 100, Complete: true}
		at, past, err := asOf(c.asked, &cov)
		var above *AboveLedgerIndexError
		if got := errors.As(err, &above); got != c.above || (got && above.Index != 100) {
			t.Errorf("asked %v: error %v, want above %t", c.asked, err, c.above)
			continue
		}
		if !c.above && (at != c.at || past != c.past || cov.Complete != c.complete) {
			t.Errorf("asked %v: at %d past %t complete %t, want %d %t %t", c.asked, at, past, cov.Complete,
				c.at, c.past, c.complete)
		}
	}
}

// TestCreatedBy: an earlier ledger index drops the partitions that begin after it,
// leaving the sources it was given as they were.
func TestCreatedBy(t *testing.T) {
	in := []Source{{Stream: Stream{Kind: "basic"}, Partitions: []int32{0, 1, 2, 3}}}
	got := createdBy(in, 25, func(rng int32) uint32 { return uint32(rng) * 10 })
	if !slices.Equal(got[0].Partitions, []int32{0, 1, 2}) || len(in[0].Partitions) != 4 {
		t.Errorf("createdBy 25 over partitions of 10: %v (given %v), want [0 1 2]", got[0].Partitions, in[0].Partitions)
	}
}
