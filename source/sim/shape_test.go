package sim

import (
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

func truthOf(t *testing.T, opts Options, upTo uint32) *Truth {
	t.Helper()
	truth, err := New(opts).Truth(upTo)
	if err != nil {
		t.Fatal(err)
	}
	return truth
}

// Alias versions keep their ID and count state indexes up by one; foundry
// serials follow the alias's foundry counter; NFTs keep ID and issuer.
func TestChainLifecycles(t *testing.T) {
	truth := truthOf(t, Options{Seed: 21, Tip: 300}, 300)
	aliasStates := make(map[chain.AliasID][]uint32)
	transitions, nftMoves, foundries := 0, 0, 0
	for _, tt := range truth.Transactions {
		if tt.Milestone == 0 {
			continue
		}
		for _, in := range tt.Transaction.Inputs {
			prev := truth.Outputs[in.OutputID()]
			if prev == nil {
				continue
			}
			for _, next := range tt.Transaction.Outputs {
				transitions += checkAliasStep(t, in.OutputID(), prev.Output, next)
				nftMoves += checkNFTStep(t, in.OutputID(), prev.Output, next)
			}
		}
		for _, o := range tt.Transaction.Outputs {
			if o.Kind == chain.OutputAlias {
				aliasStates[o.AliasID] = append(aliasStates[o.AliasID], o.StateIndex)
			}
			if o.Kind == chain.OutputFoundry {
				foundries++
				if o.FoundryID.SerialNumber() != o.SerialNumber || o.Address.Kind != chain.AddressAlias {
					t.Fatalf("foundry %s: serial or alias address wrong", o.FoundryID)
				}
			}
		}
	}
	if transitions < 10 || nftMoves < 10 || foundries < 5 || len(aliasStates) < 10 {
		t.Fatalf("too few lifecycle events: %d alias transitions, %d nft moves, %d foundries, %d aliases",
			transitions, nftMoves, foundries, len(aliasStates))
	}
}

func checkAliasStep(t *testing.T, inID chain.OutputID, prev, next chain.Output) int {
	if prev.Kind != chain.OutputAlias || next.Kind != chain.OutputAlias {
		return 0
	}
	want := prev.AliasID
	if want.IsZero() {
		want = chain.AliasIDFromOutputID(inID)
	}
	if next.AliasID != want || next.StateIndex != prev.StateIndex+1 || next.FoundryCounter < prev.FoundryCounter {
		t.Fatalf("bad alias transition from %s: %+v -> %+v", inID, prev, next)
	}
	return 1
}

func checkNFTStep(t *testing.T, inID chain.OutputID, prev, next chain.Output) int {
	if prev.Kind != chain.OutputNFT || next.Kind != chain.OutputNFT {
		return 0
	}
	want := prev.NFTID
	if want.IsZero() {
		want = chain.NFTIDFromOutputID(inID)
	}
	if next.NFTID != want || *next.Issuer != *prev.Issuer || string(next.Metadata) != string(prev.Metadata) {
		t.Fatalf("bad NFT transfer from %s", inID)
	}
	return 1
}

// The optional features and conditions the indexer filters on all occur.
func TestOutputVariety(t *testing.T) {
	truth := truthOf(t, Options{Seed: 22, Tip: 200}, 200)
	seen := make(map[string]int)
	for _, o := range truth.Outputs {
		out := o.Output
		seen[out.Kind.String()]++
		flags := map[string]bool{
			"sender": out.Sender != nil, "issuer": out.Issuer != nil, "tag": len(out.Tag) > 0,
			"metadata": len(out.Metadata) > 0, "sdr": out.StorageDepositReturn != nil,
			"timelock": out.Timelock != nil, "expiration": out.Expiration != nil,
			"tokens": len(out.NativeTokens) > 0, "dustAllowance": out.LegacyType == chain.LegacySigLockedDustAllowance && out.Kind == chain.OutputLegacy,
			"aliasOwned": out.Address != nil && out.Address.Kind == chain.AddressAlias && out.Kind == chain.OutputBasic,
			"nftOwned":   out.Address != nil && out.Address.Kind == chain.AddressNFT,
		}
		for name, ok := range flags {
			if ok {
				seen[name]++
			}
		}
	}
	for _, name := range []string{"legacy", "basic", "alias", "foundry", "nft", "sender", "issuer", "tag",
		"metadata", "sdr", "timelock", "expiration", "tokens", "dustAllowance", "aliasOwned", "nftOwned"} {
		if seen[name] == 0 {
			t.Errorf("no output with %s in 200 milestones: %v", name, seen)
		}
	}
}

// Popularity is skewed: the busiest address and tag appear far more often
// than the median ones.
func TestZipfSkew(t *testing.T) {
	truth := truthOf(t, Options{Seed: 23, Tip: 200}, 200)
	addrCount := make(map[chain.Address]int)
	for _, o := range truth.Outputs {
		if a := o.Output.Address; a != nil && a.Kind == chain.AddressEd25519 {
			addrCount[*a]++
		}
	}
	tagCount := make(map[string]int)
	for tag, ids := range truth.Tags {
		tagCount[tag] = len(ids)
	}
	checkSkew(t, "address", counts(addrCount))
	checkSkew(t, "tag", counts(tagCount))
}

func counts[K comparable](m map[K]int) []int {
	var out []int
	for _, n := range m {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

func checkSkew(t *testing.T, what string, sorted []int) {
	t.Helper()
	if len(sorted) < 10 {
		t.Fatalf("only %d distinct %ss", len(sorted), what)
	}
	top, median := sorted[len(sorted)-1], sorted[len(sorted)/2]
	if top < 10*median {
		t.Fatalf("%s popularity not skewed: top %d, median %d", what, top, median)
	}
	t.Logf("%s: %d distinct, top %d, median %d", what, len(sorted), top, median)
}
