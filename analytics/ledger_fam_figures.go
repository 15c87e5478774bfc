package analytics

import (
	"strings"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// addressCountKey is the number of addresses with a balance.
var addressCountKey = figureKey(FamilyAddressBalance, "address_with_balance_count")

// zeroFigures is every figure of the five ledger families at zero, with the
// token_distribution buckets 0..ilog10(supply) (Chronicle lists every bucket).
func zeroFigures(supply uint64) map[string]int64 {
	figs := map[string]int64{addressCountKey: 0}
	for _, f := range Families {
		if f.Ledger && f.Name != FamilyAddressBalance {
			for _, p := range f.Figures {
				figs[figureKey(f.Name, p)] = 0
			}
		}
	}
	for n := range Magnitude(max(supply, 1)) + 1 {
		count, amount := bucketKeys(n)
		figs[count], figs[amount] = 0, 0
	}
	return figs
}

// moveBalance moves one address's balance from old to new in the address_balance
// figures: an address counts while its balance is positive, in the bucket of the
// balance's order of magnitude. A balance at or below zero (an address whose outputs
// predate a partial base) is no balance.
func moveBalance(figs map[string]int64, old, new int64) {
	if old > 0 {
		count, amount := bucketKeys(Magnitude(uint64(old)))
		figs[addressCountKey]--
		figs[count]--
		figs[amount] -= old
	}
	if new > 0 {
		count, amount := bucketKeys(Magnitude(uint64(new)))
		figs[addressCountKey]++
		figs[count]++
		figs[amount] += new
	}
}

// familyRows splits figures named "<family>.<path>" into one row per ledger family.
func familyRows(figs map[string]int64) []store.FamilyFigures {
	byFamily := map[string]map[string]int64{}
	for _, f := range LedgerFamilies {
		byFamily[f] = map[string]int64{}
	}
	for k, v := range figs {
		family, path, _ := strings.Cut(k, ".")
		if m := byFamily[family]; m != nil {
			m[path] = v
		}
	}
	out := make([]store.FamilyFigures, 0, len(LedgerFamilies))
	for _, f := range LedgerFamilies {
		out = append(out, store.FamilyFigures{Family: f, Figures: byFamily[f]})
	}
	return out
}

// joinFamilies names each figure of the rows "<family>.<path>" in one map.
func joinFamilies(rows []store.FamilyFigures) map[string]int64 {
	figs := map[string]int64{}
	for _, r := range rows {
		for p, v := range r.Figures {
			figs[figureKey(r.Family, p)] = v
		}
	}
	return figs
}
