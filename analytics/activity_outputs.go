package analytics

import "github.com/stardust-indexer/stardust-indexer/chain"

// outputActivity is Chronicle's OutputActivity. Per transaction, the chain IDs among its
// inputs and among its outputs (an implicit, zero, alias or NFT ID resolved from the
// output ID) are compared: an ID only among the outputs is created, only among the
// inputs destroyed, among both transferred (NFT, foundry). An alias on both sides counts
// as state changed when its state index differs and as governor changed when its
// governor address differs (both may hold, or neither). A side holding one ID twice
// keeps its first output, as Chronicle's sets do.
func outputActivity(txs []txChange) map[string]int64 {
	f := zeroFiguresOf(FamilyOutputActivity)
	for _, tx := range txs {
		nftIn, nftOut := chainIDs(tx, chain.OutputNFT, (*chain.Output).ResolvedNFTID)
		countChains(f, "nft.", nftIn, nftOut)
		foundryIn, foundryOut := chainIDs(tx, chain.OutputFoundry, func(o *chain.Output, _ chain.OutputID) chain.FoundryID {
			return o.FoundryID
		})
		countChains(f, "foundry.", foundryIn, foundryOut)
		countAliases(f, tx)
	}
	return f
}

// countChains adds one transaction's created, transferred and destroyed chains.
func countChains[T comparable](f map[string]int64, prefix string, in, out map[T]*chain.Output) {
	for id := range out {
		if in[id] != nil {
			f[prefix+"transferred_count"]++
		} else {
			f[prefix+"created_count"]++
		}
	}
	for id := range in {
		if out[id] == nil {
			f[prefix+"destroyed_count"]++
		}
	}
}

// countAliases adds one transaction's created, changed and destroyed aliases.
func countAliases(f map[string]int64, tx txChange) {
	in, out := chainIDs(tx, chain.OutputAlias, (*chain.Output).ResolvedAliasID)
	for id, o := range out {
		before := in[id]
		if before == nil {
			f["alias.created_count"]++
			continue
		}
		if before.StateIndex != o.StateIndex {
			f["alias.state_changed_count"]++
		}
		if !sameAddress(before.Governor, o.Governor) {
			f["alias.governor_changed_count"]++
		}
	}
	for id := range in {
		if out[id] == nil {
			f["alias.destroyed_count"]++
		}
	}
}

// chainIDs maps the chain IDs of the transaction's inputs and of its outputs of one
// kind to the first output holding each.
func chainIDs[T comparable](tx txChange, kind chain.OutputKind, id func(*chain.Output, chain.OutputID) T) (in, out map[T]*chain.Output) {
	in, out = map[T]*chain.Output{}, map[T]*chain.Output{}
	for _, ls := range tx.consumed {
		if ls.Output.Kind == kind {
			addFirst(in, id(&ls.Output, ls.OutputID), &ls.Output)
		}
	}
	for _, lo := range tx.created {
		if lo.Output.Kind == kind {
			addFirst(out, id(&lo.Output, lo.OutputID), &lo.Output)
		}
	}
	return in, out
}

func addFirst[T comparable](m map[T]*chain.Output, id T, o *chain.Output) {
	if _, ok := m[id]; !ok {
		m[id] = o
	}
}

func sameAddress(a, b *chain.Address) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
