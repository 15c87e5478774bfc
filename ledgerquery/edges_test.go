package ledgerquery

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// A ledger index past int32's range (the largest milestone index) filters nothing out.
func TestFilterLedgerIndexPastInt32(t *testing.T) {
	row := store.UnspentRow{Kind: "basic", MilestoneIndex: 5}
	if !(&Filter{LedgerIndex: math.MaxUint32}).Match(&row) {
		t.Fatal("ledgerIndex 2^32-1 filtered out an output of milestone 5")
	}
}

// hasNativeTokens=false matches an output without native tokens.
func TestFilterNoNativeTokensMatchesNone(t *testing.T) {
	row := store.UnspentRow{Kind: "basic", NativeTokenCount: 0}
	if !(&Filter{HasNativeTokens: ptr(false)}).Match(&row) {
		t.Fatal("hasNativeTokens=false filtered out an output without native tokens")
	}
}

// Token bounds make a filter empty only when both are given and the minimum passes the
// maximum.
func TestFilterEmptyByTokenBounds(t *testing.T) {
	for _, tc := range []struct {
		name     string
		min, max *int32
		want     bool
	}{
		{"min = max", ptr(int32(2)), ptr(int32(2)), false},
		{"min > max", ptr(int32(3)), ptr(int32(2)), true},
		{"min only", ptr(int32(3)), nil, false},
		{"max only", nil, ptr(int32(0)), false},
	} {
		if got := (&Filter{MinNativeTokens: tc.min, MaxNativeTokens: tc.max}).Empty(); got != tc.want {
			t.Errorf("%s: Empty %v, want %v", tc.name, got, tc.want)
		}
	}
}

// The successor of an ID whose digits after the first are all f carries into the first.
func TestSuccessorCarriesIntoTheFirstDigit(t *testing.T) {
	id := "0x0" + strings.Repeat("f", outputIDDigits-1)
	want := "0x1" + strings.Repeat("0", outputIDDigits-1)
	if got := Successor(store.Position{CreatedAt: 7, OutputID: id}); got != (store.Position{CreatedAt: 7, OutputID: want}) {
		t.Fatalf("Successor(%s) = %+v, want %s at the same time", id, got, want)
	}
}

// The spent twin is asked about the ledger's first milestone even when it is the newest
// covered one: a ledger of one milestone may already miss its spends.
func TestSpentMissingAtTheFirstCoveredMilestone(t *testing.T) {
	m := &memStore{spentSince: 8}
	missing, err := SpentMissing(context.Background(), m, store.LedgerCoverage{Since: 7, Index: 7})
	if err != nil || !missing {
		t.Fatalf("spent twin from 8, ledger of milestone 7 alone: missing %v, %v; want true", missing, err)
	}
}
