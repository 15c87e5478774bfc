package realdata

import "testing"

// TestChronicleAnalytics: both milestones, every one of Chronicle's eleven measured
// families (protocol parameters are not in the file), amounts without their ".0".
func TestChronicleAnalytics(t *testing.T) {
	figures, err := ChronicleAnalytics()
	if err != nil {
		t.Fatal(err)
	}
	for _, index := range []uint32{17339, 17340} {
		ms := figures[index]
		if len(ms) != 11 {
			t.Errorf("%d: %d families, want 11: %v", index, len(ms), ms)
		}
		if _, ok := ms["base_tokens"]["booked_amount"]; !ok {
			t.Errorf("%d: base_tokens %v lacks booked_amount", index, ms["base_tokens"])
		}
		if got := len(ms["transaction_size"]); got != 22 {
			t.Errorf("%d: transaction_size has %d figures, want 22", index, got)
		}
	}
	if len(figures) != 2 {
		t.Errorf("%d milestones, want 2", len(figures))
	}
}

// TestChronicleAmounts: the ".0" fields are Chronicle's amounts; counts and the
// storage deposit return's inner amount (a plain field in Chronicle) are not.
func TestChronicleAmounts(t *testing.T) {
	amounts, err := ChronicleAmounts()
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]bool{"base_tokens.booked_amount": true, "ledger_outputs.nft.amount": true,
		"block_activity.milestone_count": false, "unlock_conditions.storage_deposit_return_inner_amount": false} {
		if got, ok := amounts[key]; !ok || got != want {
			t.Errorf("%s: amount %t (listed %t), want %t", key, got, ok, want)
		}
	}
}
