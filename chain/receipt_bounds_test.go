package chain

import "testing"

// receiptOf is a valid receipt of n funds (ascending tail hashes, Ed25519 addresses, the
// minimum deposit).
func receiptOf(n int) *Receipt {
	rc := &Receipt{MigratedAt: 7, Final: true, Transaction: TreasuryTransaction{OutputAmount: 1}}
	for i := range n {
		f := MigratedFunds{Address: Address{Kind: AddressEd25519}, Deposit: MinMigratedDeposit}
		f.TailTransactionHash[0], f.TailTransactionHash[1] = byte(i>>8), byte(i)
		rc.Funds = append(rc.Funds, f)
	}
	return rc
}

// A receipt holds 1..MaxReceiptFunds funds: one and the maximum decode, one more is refused.
func TestReceiptFundsAtTheMaximum(t *testing.T) {
	if rc, err := DecodeReceipt(receiptOf(1).Encode()); err != nil || len(rc.Funds) != 1 {
		t.Fatalf("a receipt of 1 fund: %v", err)
	}
	if rc, err := DecodeReceipt(receiptOf(MaxReceiptFunds).Encode()); err != nil || len(rc.Funds) != MaxReceiptFunds {
		t.Fatalf("a receipt of %d funds: %v", MaxReceiptFunds, err)
	}
	if _, err := DecodeReceipt(receiptOf(MaxReceiptFunds + 1).Encode()); err == nil {
		t.Fatalf("a receipt of %d funds decoded", MaxReceiptFunds+1)
	}
}
