package ledgerquery

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

func ptr[T any](v T) *T { return &v }

// at is an address filter on the text a row holds (the rows of these tests name their
// addresses with letters).
func at(text string) chain.LocalAddress { return chain.LocalAddress{Text: text} }

// TestFilterMatch: inx-indexer's (SQL) meaning on the edges: strict bounds, absent
// values satisfy no bound, presence flags both ways, unlockableByAddress per kind.
func TestFilterMatch(t *testing.T) {
	basic := store.UnspentRow{Kind: "basic", CreatedAt: 100, MilestoneIndex: 5, Owner: "a",
		ExpirationReturnAddress: "e", DustReturnAddress: "d", DustReturnAmount: ptr(int64(1)), Timelock: ptr(int64(50)),
		NativeTokenCount: 2, Tag: "0x01"}
	alias := store.UnspentRow{Kind: "alias", CreatedAt: 100, Owner: "s", StateController: "s", Governor: "g"}
	for _, tc := range []struct {
		name string
		f    Filter
		row  store.UnspentRow
		want bool
	}{
		{"no filter", Filter{}, basic, true},
		{"timelocked before, strict", Filter{TimelockedBefore: ptr(int64(50))}, basic, false},
		{"timelocked before", Filter{TimelockedBefore: ptr(int64(51))}, basic, true},
		{"timelocked after, strict", Filter{TimelockedAfter: ptr(int64(50))}, basic, false},
		{"expires: none", Filter{ExpiresAfter: ptr(int64(0))}, basic, false},
		{"expires before: none", Filter{ExpiresBefore: ptr(int64(1 << 40))}, basic, false},
		{"has expiration false", Filter{HasExpiration: ptr(false)}, basic, true},
		{"has SDR", Filter{HasSDR: ptr(true)}, basic, true},
		{"has timelock false", Filter{HasTimelock: ptr(false)}, basic, false},
		{"tokens", Filter{HasNativeTokens: ptr(true), MinNativeTokens: ptr(int32(2)), MaxNativeTokens: ptr(int32(2))}, basic, true},
		{"no tokens", Filter{HasNativeTokens: ptr(false)}, basic, false},
		{"created after, strict", Filter{CreatedAfter: ptr(int64(100))}, basic, false},
		{"created before, strict", Filter{CreatedBefore: ptr(int64(100))}, basic, false},
		{"created window", Filter{CreatedAfter: ptr(int64(99)), CreatedBefore: ptr(int64(101))}, basic, true},
		{"unlockable by expiration return", Filter{Unlockable: at("e")}, basic, true},
		{"unlockable by SDR return", Filter{Unlockable: at("d")}, basic, true},
		{"not unlockable by sender", Filter{Unlockable: at("x")}, basic, false},
		{"alias unlockable by governor", Filter{Unlockable: at("g")}, alias, true},
		{"alias unlockable by state controller", Filter{Unlockable: at("s")}, alias, true},
		{"beyond the ledger index", Filter{LedgerIndex: 4}, basic, false},
		{"at the ledger index", Filter{LedgerIndex: 5}, basic, true},
		{"tag", Filter{Tag: "0x02"}, basic, false},
	} {
		if got := tc.f.Match(&tc.row); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if !(&Filter{CreatedBefore: ptr(int64(0))}).Empty() || !(&Filter{CreatedAfter: ptr(int64(5)), CreatedBefore: ptr(int64(6))}).Empty() ||
		(&Filter{CreatedAfter: ptr(int64(5)), CreatedBefore: ptr(int64(7))}).Empty() {
		t.Error("Empty: wrong creation windows")
	}
	s := (&Filter{CreatedAfter: ptr(int64(9)), CreatedBefore: ptr(int64(20))}).Span(&store.Position{CreatedAt: 3})
	if s.From != (store.Position{CreatedAt: 10}) || s.To != (store.Position{CreatedAt: 20}) {
		t.Errorf("span %+v", s)
	}
}
