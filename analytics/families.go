package analytics

import "fmt"

// Family is one of inx-chronicle's analytics families: its measurement name, whether
// it describes the whole ledger (then its figures are exact only where the ledger is
// whole), and the paths of its figures ("{N}" stands for a token_distribution bucket
// number). The families' rows, the routes and their schemas all follow this list.
type Family struct {
	Name    string
	Ledger  bool
	Figures []string
}

// Families are the twelve families in Chronicle's order: the activity families, the
// ledger families, the protocol parameters.
var Families = []Family{
	{Name: FamilyBlockActivity, Figures: []string{"milestone_count", "no_payload_count", "tagged_data_count",
		"transaction_count", "treasury_transaction_count", "confirmed_count", "conflicting_count", "no_transaction_count"}},
	{Name: FamilyMilestoneSize, Figures: []string{"total_milestone_payload_bytes", "total_tagged_data_payload_bytes",
		"total_transaction_payload_bytes", "total_treasury_transaction_payload_bytes", "total_milestone_bytes"}},
	{Name: FamilyActiveAddresses, Figures: []string{"count"}},
	{Name: FamilyBaseTokens, Figures: []string{"booked_amount", "transferred_amount"}},
	{Name: FamilyOutputActivity, Figures: concat(prefixed("nft.", "created_count", "transferred_count", "destroyed_count"),
		prefixed("alias.", "created_count", "governor_changed_count", "state_changed_count", "destroyed_count"),
		prefixed("foundry.", "created_count", "transferred_count", "destroyed_count"))},
	{Name: FamilyTransactionSize, Figures: concat(sizeBucketPaths("input_buckets."), sizeBucketPaths("output_buckets."))},
	{Name: FamilyLedgerOutputs, Ledger: true, Figures: concat(prefixed("basic.", "count", "amount"),
		prefixed("alias.", "count", "amount"), prefixed("nft.", "count", "amount"), prefixed("foundry.", "count", "amount"))},
	{Name: FamilyLedgerSize, Ledger: true, Figures: []string{"total_key_bytes", "total_data_bytes", "total_storage_deposit_amount"}},
	{Name: FamilyAddressBalance, Ledger: true, Figures: []string{"address_with_balance_count",
		"token_distribution.{N}.address_count", "token_distribution.{N}.total_amount"}},
	{Name: FamilyUnlockConditions, Ledger: true, Figures: concat(prefixed("timelock.", "count", "amount"),
		prefixed("expiration.", "count", "amount"), prefixed("storage_deposit_return.", "count", "amount"),
		[]string{"storage_deposit_return_inner_amount"})},
	{Name: FamilyUnclaimedTokens, Ledger: true, Figures: []string{"unclaimed_count", "unclaimed_amount"}},
	{Name: FamilyProtocol, Figures: []string{"protocol_version", "min_pow_score", "below_max_depth", "token_supply",
		"rent.v_byte_cost", "rent.v_byte_factor_data", "rent.v_byte_factor_key"}},
}

// zeroFiguresOf is every figure of the named family at zero.
func zeroFiguresOf(name string) map[string]int64 {
	for _, f := range Families {
		if f.Name == name {
			out := make(map[string]int64, len(f.Figures))
			for _, p := range f.Figures {
				out[p] = 0
			}
			return out
		}
	}
	panic(fmt.Sprintf("analytics: no family %q", name))
}

func prefixed(prefix string, names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = prefix + n
	}
	return out
}

func concat(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// sizeBucketPaths are the transaction size buckets' figures under prefix.
func sizeBucketPaths(prefix string) []string {
	out := make([]string, len(sizeBuckets))
	for i, b := range sizeBuckets {
		out[i] = prefix + b.name
	}
	return out
}
