package api

import (
	"fmt"
	"strings"
)

// familiesPrefix is where Chronicle's analytics families are served.
const familiesPrefix = "/api/analytics/v2"

// familySpec is one of Chronicle's analytics families as this API serves it: its
// measurement name, whether it describes the whole ledger (its coverage follows the
// ledger fold's) and the paths of its figures ("{N}" stands for a bucket number).
type familySpec struct {
	name    string
	ledger  bool
	figures []string
	summary string
}

// protocolParametersFamily has, besides its figures, the TIP-25 protocol object (its
// row's Detail), and a row only where the parameters change.
const protocolParametersFamily = "protocol_parameters"

// families are the twelve families, in Chronicle's order: the activity families, then
// the ledger families, then the protocol parameters.
var families = []familySpec{
	{name: "block_activity", summary: "blocks of the milestone's cone by payload type and by inclusion state",
		figures: []string{"milestone_count", "no_payload_count", "tagged_data_count", "transaction_count",
			"treasury_transaction_count", "confirmed_count", "conflicting_count", "no_transaction_count"}},
	{name: "milestone_size", summary: "bytes of the milestone's blocks by payload type",
		figures: []string{"total_milestone_payload_bytes", "total_tagged_data_payload_bytes",
			"total_transaction_payload_bytes", "total_treasury_transaction_payload_bytes", "total_milestone_bytes"}},
	{name: "active_addresses", summary: "addresses the milestone's transactions spent from or sent to",
		figures: []string{"count"}},
	{name: "base_tokens", summary: "base tokens booked in created outputs and transferred between addresses",
		figures: []string{"booked_amount", "transferred_amount"}},
	{name: "output_activity", summary: "NFT, alias and foundry outputs created, transferred, changed and destroyed",
		figures: append(append(prefixed("nft.", "created_count", "transferred_count", "destroyed_count"),
			prefixed("alias.", "created_count", "governor_changed_count", "state_changed_count", "destroyed_count")...),
			prefixed("foundry.", "created_count", "transferred_count", "destroyed_count")...)},
	{name: "transaction_size", summary: "transactions by their number of inputs and of outputs",
		figures: append(sizeBuckets("input_buckets."), sizeBuckets("output_buckets.")...)},
	{name: "ledger_outputs", ledger: true, summary: "unspent outputs and their amount by output kind",
		figures: prefixedEach([]string{"basic.", "alias.", "nft.", "foundry."}, "count", "amount")},
	{name: "ledger_size", ledger: true, summary: "key and data bytes of the unspent outputs and their storage deposit",
		figures: []string{"total_key_bytes", "total_data_bytes", "total_storage_deposit_amount"}},
	{name: "address_balance", ledger: true,
		summary: "addresses holding base tokens, and addresses and tokens by power of ten of the balance",
		figures: []string{"address_with_balance_count", "token_distribution.{N}.address_count",
			"token_distribution.{N}.total_amount"}},
	{name: "unlock_conditions", ledger: true,
		summary: "unspent outputs and their amount by unlock condition, and the amount storage deposit returns hold back",
		figures: append(prefixedEach([]string{"timelock.", "expiration.", "storage_deposit_return."}, "count", "amount"),
			"storage_deposit_return_inner_amount")},
	{name: "unclaimed_tokens", ledger: true, summary: "genesis outputs never spent and their amount",
		figures: []string{"unclaimed_count", "unclaimed_amount"}},
	{name: protocolParametersFamily, summary: "the protocol parameters, at the milestones where they change",
		figures: []string{"protocol_version", "min_pow_score", "below_max_depth", "token_supply",
			"rent.v_byte_cost", "rent.v_byte_factor_data", "rent.v_byte_factor_key"}},
}

func prefixed(prefix string, names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = prefix + n
	}
	return out
}

func prefixedEach(prefixes []string, names ...string) []string {
	var out []string
	for _, p := range prefixes {
		out = append(out, prefixed(p, names...)...)
	}
	return out
}

// sizeBuckets are Chronicle's transaction size buckets: 1 to 7 exactly, then ranges.
func sizeBuckets(prefix string) []string {
	var out []string
	for n := 1; n <= 7; n++ {
		out = append(out, fmt.Sprintf("%ssingle(%d)", prefix, n))
	}
	return append(out, prefixed(prefix, "small", "medium", "large", "huge")...)
}

// isAmount says whether a figure is a token amount, which answers give as a decimal
// string (amounts may pass JavaScript's safe integers): its last path segment names an
// amount, or it is the token supply.
func isAmount(path string) bool {
	last := path[strings.LastIndex(path, ".")+1:]
	return strings.Contains(last, "amount") || path == "token_supply"
}
