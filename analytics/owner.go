package analytics

import "github.com/stardust-indexer/stardust-indexer/chain"

// Owner is the address that controls an output, the one definition every analytics
// figure uses: who must unlock it to spend it. For an alias that is the state controller
// (the governor can only change controllers, not move the funds); for a foundry, the
// alias that owns it (its immutable alias address unlock condition). ok is false for an
// output without one (none exist in a valid ledger).
func Owner(o *chain.Output) (owner chain.Address, ok bool) {
	var a *chain.Address
	switch o.Kind {
	case chain.OutputBasic, chain.OutputNFT, chain.OutputLegacy:
		a = o.Address
	case chain.OutputAlias:
		a = o.StateController
	case chain.OutputFoundry:
		a = o.Address
	}
	if a == nil {
		return chain.Address{}, false
	}
	return *a, true
}
