package analytics

import (
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Holding is what one unspent output adds to its owner's balance at a time: the rule the
// explorer's /balance and the ledger analytics (richest addresses, token distribution)
// share, TIP-18's unlock conditions judged at that time (the ledger index's milestone
// timestamp: a later milestone would judge a spend at its own, later, time).
//
//   - Owner: the expiration return address once the expiration time is reached
//     (t >= expiration); before that, the output's owner (Owner in owner.go: the
//     address unlock condition, an alias's state controller, a foundry's alias).
//   - Total: the whole amount, whatever its conditions (Chronicle's totalBalance).
//   - Available: what the owner could spend at t: nothing while a timelock runs
//     (t < timelock); otherwise the amount less a storage deposit return, which is owed
//     back to its return address (TIP-18 lifts that duty when the expiration return
//     address unlocks: then the whole amount).
//   - SigLocked: Chronicle's sigLockedBalance, unchanged: the amount of an output its
//     owner unlocks with a signature alone, that is without a storage deposit return,
//     timelock or expiration condition (aliases and foundries always), else nothing.
type Holding struct {
	Owner     string
	Total     uint64
	Available uint64
	SigLocked uint64
}

// HoldingAt applies the rule to an unspent output's row at t (unix seconds).
func HoldingAt(r *store.UnspentRow, t int64) Holding {
	amount := uint64(max(r.Amount, 0))
	h := Holding{Owner: r.Owner, Total: amount, Available: amount}
	expired := r.Expiration != nil && t >= *r.Expiration
	if expired {
		h.Owner = r.ExpirationReturnAddress
	}
	switch {
	case r.Timelock != nil && t < *r.Timelock:
		h.Available = 0
	case r.DustReturnAmount != nil && !expired:
		h.Available = amount - min(uint64(max(*r.DustReturnAmount, 0)), amount)
	}
	if r.DustReturnAmount == nil && r.Timelock == nil && r.Expiration == nil {
		h.SigLocked = amount
	}
	return h
}
