package explorer

import (
	"cmp"
	"slices"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// holding is a stretch of milestones during which an address held an output: from the
// milestone that made it the owner (creation, or the expiration that passed the output
// to its return address) up to the one that ended it (spent, or expired away; 0:
// still held). Held after milestone k means from <= k < until: the balance route's rule
// (analytics.HoldingAt at k's time) milestone by milestone.
type holding struct {
	outputID    string
	amount      int64
	from, until uint32
	createdAt   int64 // unix seconds of from, when from is the output's creation (else 0)
}

// heldAt reports whether h is held once milestone k was applied.
func (h *holding) heldAt(k uint32) bool { return h.from <= k && (h.until == 0 || k < h.until) }

// expiryFunc is the first milestone whose time is at or after unix time t (0: none up
// to the ledger index).
type expiryFunc func(t int64) (uint32, error)

// holdingsOf turns an address's owner candidates (latestRows: one row per output) into
// its holdings up to ledger index ledger: an output without expiration is held by its
// owner from creation to spend; one with expiration by its owner until the first
// milestone at or after the expiration time and by its return address from then on.
func holdingsOf(address string, rows map[string]*store.UnspentRow, ledger uint32, expiry expiryFunc) ([]holding, error) {
	var out []holding
	for _, r := range rows {
		created, spent := uint32(r.MilestoneIndex), uint32(max(r.SpentMilestoneIndex, 0))
		if r.MilestoneIndex < 0 || created > ledger {
			continue
		}
		if spent > ledger {
			spent = 0 // spent by a milestone past the ledger index: still held at it
		}
		expires := uint32(0)
		if r.Expiration != nil {
			x, err := expiresAt(r, expiry)
			if err != nil {
				return nil, err
			}
			expires = x
		}
		out = append(out, spans(address, r, created, spent, expires)...)
	}
	return out, nil
}

// latestRows keeps one row per output: its spent twin's when it has one (a spend
// written halfway leaves both), which says when it was spent.
func latestRows(rows []store.UnspentRow) map[string]*store.UnspentRow {
	by := make(map[string]*store.UnspentRow, len(rows))
	for i := range rows {
		r := &rows[i]
		if old := by[r.OutputID]; old == nil || old.SpentMilestoneIndex == 0 {
			by[r.OutputID] = r
		}
	}
	return by
}

// expiresAt is the first milestone at whose time r is expired: its creation when it
// was created expired, else the first milestone at or after its expiration time.
func expiresAt(r *store.UnspentRow, expiry expiryFunc) (uint32, error) {
	if *r.Expiration <= r.CreatedAt {
		return uint32(r.MilestoneIndex), nil
	}
	return expiry(*r.Expiration)
}

// spans are the holdings of one output by address: held by its owner over [created,
// min(spent, expires)), by its expiration return address over [expires, spent).
func spans(address string, r *store.UnspentRow, created, spent, expires uint32) []holding {
	h := func(from, until uint32) []holding {
		if until != 0 && until <= from {
			return nil
		}
		at := int64(0)
		if from == created {
			at = r.CreatedAt
		}
		return []holding{{outputID: r.OutputID, amount: max(r.Amount, 0), from: from, until: until, createdAt: at}}
	}
	owner, back := r.Owner == address, r.Expiration != nil && r.ExpirationReturnAddress == address
	switch {
	case owner && back, owner && expires == 0:
		return h(created, spent)
	case owner:
		return h(created, earliest(spent, expires))
	case back && expires != 0:
		return h(max(created, expires), spent)
	}
	return nil
}

// earliest is the smaller of two ends, 0 standing for none.
func earliest(a, b uint32) uint32 {
	if a == 0 || (b != 0 && b < a) {
		return b
	}
	return a
}

// balanceAfter is the balance held once milestone k was applied.
func balanceAfter(hs []holding, k uint32) int64 {
	var sum int64
	for i := range hs {
		if hs[i].heldAt(k) {
			sum += hs[i].amount
		}
	}
	return sum
}

// outputChange is one output's part in a milestone's change of the balance.
type outputChange struct {
	index    uint32
	outputID string
	delta    int64
}

// changesIn are the changes the milestones in [first, last] made, by milestone, then
// output ID: an output gained at a holding's start and lost at its end.
func changesIn(hs []holding, first, last uint32) []outputChange {
	var out []outputChange
	in := func(k uint32) bool { return k >= first && k <= last }
	for _, h := range hs {
		if in(h.from) {
			out = append(out, outputChange{h.from, h.outputID, h.amount})
		}
		if h.until != 0 && in(h.until) {
			out = append(out, outputChange{h.until, h.outputID, -h.amount})
		}
	}
	slices.SortFunc(out, func(a, b outputChange) int {
		return cmp.Or(cmp.Compare(a.index, b.index), cmp.Compare(a.outputID, b.outputID))
	})
	return out
}
