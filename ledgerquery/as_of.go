package ledgerquery

import (
	"fmt"
	"slices"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// AboveLedgerIndexError is a request for a ledger index the ledger has not reached: it
// is known only up to Index.
type AboveLedgerIndexError struct{ Asked, Index uint32 }

func (e *AboveLedgerIndexError) Error() string {
	return fmt.Sprintf("ledger index %d is above the ledger index, %d", e.Asked, e.Index)
}

// asOf is the ledger index a request answers at (asked, or nil for the ledger index) and
// whether it is an earlier one (past: the spent twin holds what was unspent there). The
// coverage at an index below its Since is not complete: a bootstrap's snapshot holds no
// output spent before its milestone.
func asOf(asked *uint32, cov *store.LedgerCoverage) (at uint32, past bool, err error) {
	switch {
	case asked == nil:
		return cov.Index, false, nil
	case *asked > cov.Index:
		return 0, false, &AboveLedgerIndexError{Asked: *asked, Index: cov.Index}
	case *asked < cov.Since && cov.Complete:
		cov.Complete, cov.Reason = false, store.BeforeSinceReason(*asked, cov.Since)
	}
	return *asked, *asked < cov.Index, nil
}

// createdBy keeps of each source the partitions that may hold outputs created up to
// milestone at: those beginning at or before it (rangeStart is a partition's first
// milestone).
func createdBy(in []Source, at uint32, rangeStart func(int32) uint32) []Source {
	out := slices.Clone(in)
	for i := range out {
		out[i].Partitions = slices.DeleteFunc(slices.Clone(out[i].Partitions), func(rng int32) bool {
			return rangeStart(rng) > at
		})
	}
	return out
}
