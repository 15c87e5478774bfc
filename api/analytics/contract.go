package analytics

import (
	"strings"

	"github.com/stardust-indexer/stardust-indexer/analytics"
)

// FamiliesPrefix is where Chronicle's analytics families are served.
const FamiliesPrefix = "/api/analytics/v2"

// FamilySpec is one of Chronicle's analytics families as this API serves it: the
// family (its name, whether its coverage follows the ledger fold's, its figures) and
// what its route says it holds.
type FamilySpec struct {
	analytics.Family
	summary string
}

// ProtocolParametersFamily has, besides its figures, the TIP-25 protocol object (its
// row's Detail), and a row only where the parameters change.
const ProtocolParametersFamily = analytics.FamilyProtocol

// familySummaries are the families' route summaries.
var familySummaries = map[string]string{
	analytics.FamilyBlockActivity:    "blocks of the milestone's cone by payload type and by inclusion state",
	analytics.FamilyMilestoneSize:    "bytes of the milestone's blocks by payload type",
	analytics.FamilyActiveAddresses:  "addresses the milestone's transactions spent from or sent to",
	analytics.FamilyBaseTokens:       "base tokens booked in created outputs and transferred between addresses",
	analytics.FamilyOutputActivity:   "NFT, alias and foundry outputs created, transferred, changed and destroyed",
	analytics.FamilyTransactionSize:  "transactions by their number of inputs and of outputs",
	analytics.FamilyLedgerOutputs:    "unspent outputs and their amount by output kind",
	analytics.FamilyLedgerSize:       "key and data bytes of the unspent outputs and their storage deposit",
	analytics.FamilyAddressBalance:   "addresses holding base tokens, and addresses and tokens by power of ten of the balance",
	analytics.FamilyUnlockConditions: "unspent outputs and their amount by unlock condition, and the amount storage deposit returns hold back",
	analytics.FamilyUnclaimedTokens:  "genesis outputs never spent and their amount",
	analytics.FamilyProtocol:         "the protocol parameters, at the milestones where they change",
}

// Families are the twelve families, in Chronicle's order: the activity families, then
// the ledger families, then the protocol parameters.
var Families = familySpecs()

func familySpecs() []FamilySpec {
	out := make([]FamilySpec, len(analytics.Families))
	for i, f := range analytics.Families {
		out[i] = FamilySpec{Family: f, summary: familySummaries[f.Name]}
	}
	return out
}

// isAmount says whether a figure is a token amount, which answers give as a decimal
// string (amounts may pass JavaScript's safe integers): its last path segment names an
// amount, or it is the token supply.
func isAmount(path string) bool {
	last := path[strings.LastIndex(path, ".")+1:]
	return strings.Contains(last, "amount") || path == "token_supply"
}
