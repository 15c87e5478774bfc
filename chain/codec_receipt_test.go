package chain

import (
	"reflect"
	"testing"
)

// TestReceiptRoundTrip: a receipt decodes to what was encoded, and a cut one is refused.
func TestReceiptRoundTrip(t *testing.T) {
	var addr Address
	addr.Kind = AddressEd25519
	addr.ID[0] = 7
	rc := &Receipt{MigratedAt: 42, Final: true,
		Funds:       []MigratedFunds{{Address: addr, Deposit: MinMigratedDeposit}, {TailTransactionHash: [49]byte{1}, Address: addr, Deposit: 2 * MinMigratedDeposit}},
		Transaction: TreasuryTransaction{InputMilestoneID: MilestoneID{9}, OutputAmount: 5}}
	b := rc.Encode()
	got, err := DecodeReceipt(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, rc) {
		t.Fatalf("round trip: got %+v, want %+v", got, rc)
	}
	if _, err := DecodeReceipt(b[:len(b)-1]); err == nil {
		t.Fatal("a cut receipt decoded")
	}
}
