package authtls_test

import (
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

// simDay is the UTC date of the sim chain's milestones (sim.Options.Genesis).
const simDay = "2022-10-01"

// routeSamples are real keys of the chain the indexer writes (`indexer run -source sim`
// with its default seed, milestones 1..tip), by the description the OpenAPI document
// gives a parameter, and the selector each list route that requires one is asked with.
type routeSamples struct {
	byDescription map[string]string
	selector      map[string]string // pattern: the query selecting that route's outputs
}

// newRouteSamples generates the indexer's sim chain again (same options, same bytes) and
// picks a key of every kind from it.
func newRouteSamples(t *testing.T) routeSamples {
	truth, err := sim.New(sim.Options{Seed: 1}).Truth(tip)
	if err != nil {
		t.Fatal(err)
	}
	ms := truth.Milestones[tip-1]
	tx := includedTransaction(t, truth)
	basic, legacy, alias, foundry, nft := firstOfKinds(t, truth)
	address := bech32(basic.Output.Address)
	return routeSamples{
		byDescription: map[string]string{
			"milestone index": fmt.Sprint(tip), "milestone ID": ms.MilestoneID.String(),
			"legacy milestone index the funds migrated at": fmt.Sprint(tip),
			"message ID": tx.Included.String(), "block ID": tx.Included.String(),
			"transaction ID": tx.ID.String(), "output ID": basic.OutputID.String(),
			"the address (bech32, any HRP, or 0x-hex)": address, "owner address": bech32(legacy.Output.Address),
			"alias ID": alias.Output.ResolvedAliasID(alias.OutputID).String(), "foundry ID": foundry.Output.FoundryID.String(),
			"NFT ID": nft.Output.ResolvedNFTID(nft.OutputID).String(), "tag, 0x-hex": someTag(t, truth),
			"peer ID": "12D3KooWSimPeer", "first milestone index": "1", "last milestone index (inclusive)": fmt.Sprint(tip),
			"last milestone index (inclusive; at most 10000 milestones from start)": fmt.Sprint(tip),
			"first date (UTC, YYYY-MM-DD)":                                          simDay, "last date (inclusive; at most 3660 days from from)": simDay,
			"the topics the stream follows (at most 32)": "milestones,address:" + address,
		},
		selector: map[string]string{
			"/outputs":   "address=" + address,
			"/aliases":   "stateController=" + bech32(alias.Output.StateController),
			"/nft":       "address=" + bech32(nft.Output.Address),
			"/foundries": "address=" + bech32(foundry.Output.Address),
			// a stream of the first two milestones, which ends
			"/api/stream/v1/events": "fromMilestone=1&toMilestone=2",
		},
	}
}

func bech32(a *chain.Address) string { return a.Bech32(sim.HRP) }

// includedTransaction is the transaction of lowest ID the ledger applied at milestone
// tip.
func includedTransaction(t *testing.T, truth *sim.Truth) *sim.TransactionTruth {
	var picked *sim.TransactionTruth
	for _, tx := range truth.Transactions {
		if tx.Milestone == tip && (picked == nil || tx.ID.String() < picked.ID.String()) {
			picked = tx
		}
	}
	if picked == nil {
		t.Fatalf("no transaction applied at milestone %d", tip)
	}
	return picked
}

// firstOfKinds picks an output of each kind the routes look up: an unspent one where
// there is one, of lowest ID (the same on every run).
func firstOfKinds(t *testing.T, truth *sim.Truth) (basic, legacy, alias, foundry, nft *sim.OutputTruth) {
	picked := map[chain.OutputKind]*sim.OutputTruth{}
	for _, o := range truth.Outputs {
		if cur, ok := picked[o.Output.Kind]; !ok || better(o, cur) {
			picked[o.Output.Kind] = o
		}
	}
	for _, k := range []chain.OutputKind{chain.OutputBasic, chain.OutputLegacy, chain.OutputAlias,
		chain.OutputFoundry, chain.OutputNFT} {
		if picked[k] == nil {
			t.Fatalf("the sim chain up to milestone %d holds no %s output", tip, k)
		}
	}
	return picked[chain.OutputBasic], picked[chain.OutputLegacy], picked[chain.OutputAlias],
		picked[chain.OutputFoundry], picked[chain.OutputNFT]
}

func better(o, than *sim.OutputTruth) bool {
	if o.Spent != than.Spent {
		return !o.Spent
	}
	return o.OutputID.String() < than.OutputID.String()
}

// someTag is the lowest tag of the chain, in hex.
func someTag(t *testing.T, truth *sim.Truth) string {
	tags := slices.Sorted(maps.Keys(truth.Tags))
	if len(tags) == 0 {
		t.Fatal("the sim chain holds no tag")
	}
	return "0x" + hex.EncodeToString([]byte(tags[0]))
}
