package analytics

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// shimmerRent is Shimmer's rent structure (its protocol parameters).
var shimmerRent = chain.Shimmer().Params.RentStructure

func plainBasic(amount uint64) chain.Output {
	a := chain.Ed25519Address([32]byte{1})
	return chain.Output{Kind: chain.OutputBasic, Amount: amount, Address: &a}
}

// TestStorageDepositMinRule: a basic output with an Ed25519 address alone costs
// Shimmer's well-known minimum storage deposit, 42600 glow; an output holding less is
// all deposit.
func TestStorageDepositMinRule(t *testing.T) {
	const shimmerMinimum = 42600
	o := plainBasic(1_000_000)
	size := len(chain.EncodeOutput(o))
	if got := StorageDeposit(o.Amount, size, shimmerRent); got != shimmerMinimum {
		t.Errorf("storage deposit of a plain basic output: %d, want %d", got, shimmerMinimum)
	}
	if got := StorageDeposit(30_000, size, shimmerRent); got != 30_000 {
		t.Errorf("storage deposit of 30000 glow: %d, want the whole amount", got)
	}
}

// TestOutputFiguresUnlockConditions: a basic and an NFT output count under each of their
// timelock, expiration and storage deposit return conditions with their whole amount,
// an alias never; a genesis output is unclaimed; a consumed output subtracts the same.
func TestOutputFiguresUnlockConditions(t *testing.T) {
	ret := chain.Ed25519Address([32]byte{2})
	lock := uint32(5)
	basic := plainBasic(1000)
	basic.Timelock, basic.Expiration = &lock, &chain.Expiration{ReturnAddress: ret, UnixTime: 9}
	basic.StorageDepositReturn = &chain.StorageDepositReturn{ReturnAddress: ret, Amount: 300}
	nft := plainBasic(500)
	nft.Kind, nft.Timelock = chain.OutputNFT, &lock
	alias := chain.Output{Kind: chain.OutputAlias, Amount: 200, StateController: &ret, Governor: &ret, Timelock: &lock}
	figs := map[string]int64{}
	for i, o := range []chain.Output{basic, nft, alias} {
		outputFigures(figs, &chain.LedgerOutput{Output: o, MilestoneIndex: uint32(i)}, shimmerRent, 1)
	}
	want := map[string]int64{
		"unlock_conditions.timelock.count": 2, "unlock_conditions.timelock.amount": 1500,
		"unlock_conditions.expiration.count": 1, "unlock_conditions.expiration.amount": 1000,
		"unlock_conditions.storage_deposit_return.count": 1, "unlock_conditions.storage_deposit_return.amount": 1000,
		"unlock_conditions.storage_deposit_return_inner_amount": 300,
		"unclaimed_tokens.unclaimed_count":                      1, "unclaimed_tokens.unclaimed_amount": 1000,
		"ledger_outputs.basic.count": 1, "ledger_outputs.nft.count": 1, "ledger_outputs.alias.amount": 200,
		"ledger_size.total_key_bytes": 3 * 34,
	}
	for k, v := range want {
		if figs[k] != v {
			t.Errorf("%s = %d, want %d", k, figs[k], v)
		}
	}
	outputFigures(figs, &chain.LedgerOutput{Output: basic}, shimmerRent, -1)
	if figs["unlock_conditions.storage_deposit_return.count"] != 0 || figs["unclaimed_tokens.unclaimed_amount"] != 0 {
		t.Errorf("consuming the basic output left %v", figs)
	}
}

// TestApplyBalancesBookkeeping: an address entering, one leaving and one moving up two
// buckets give the figures a fresh distribution of the new balances gives.
func TestApplyBalancesBookkeeping(t *testing.T) {
	const supply = 1_000_000
	figs := zeroFigures(supply)
	old := map[string]int64{"a": 0, "b": 500, "c": 50}
	for _, b := range old {
		moveBalance(figs, 0, b)
	}
	got := applyBalances(figs, old, map[string]int64{"a": 70, "b": -500, "c": 950})
	balances := map[string]uint64{}
	for a, b := range got {
		if b > 0 {
			balances[a] = uint64(b)
		}
	}
	if figs[addressCountKey] != int64(len(balances)) {
		t.Errorf("address count %d, want %d", figs[addressCountKey], len(balances))
	}
	want := zeroFigures(supply)
	for _, d := range Distribution(balances) {
		count, amount := bucketKeys(d.Magnitude)
		want[count], want[amount] = d.AddressCount, d.TotalBalance
	}
	for k, v := range want {
		if k != addressCountKey && figs[k] != v {
			t.Errorf("%s = %d, want %d", k, figs[k], v)
		}
	}
	if len(figs) != len(want) {
		t.Errorf("%d figures, want %d (buckets 0..6 and the count)", len(figs), len(want))
	}
}
