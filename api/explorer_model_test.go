package api

import (
	"cmp"
	"slices"

	"github.com/stardust-indexer/stardust-indexer/api/explorer"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

// The explorer's expected side, from sim.Truth alone: the unspent outputs at the newest
// milestone with TIP-18's rules restated here (not package analytics'), each address's
// ledger updates, each milestone's created and consumed outputs.

type balanceWant struct{ total, available, sigLocked uint64 }

// explorerWant is the model of one chain.
type explorerWant struct {
	ledgerTime int64                   // timestamp of the newest milestone
	balances   map[string]*balanceWant // owner → balance
	updates    map[string][]updateWant // address → its ledger updates, in no order
	// Which TIP-18 cases the unspent set holds (the test wants each at least once).
	expired, expiring, locked, unlocked, withSDR int
}

type updateWant struct {
	OutputID       string
	IsSpent        bool
	MilestoneIndex uint32
	Timestamp      int64
	Kind           string
	Roles          []string
	Amount         string
}

func addrText(a *chain.Address) string {
	if a == nil {
		return ""
	}
	return a.Bech32(sim.HRP)
}

// ownerOf restates who holds an output at t: the expiration return address once
// t >= the expiration time, else the owner (an alias's state controller, otherwise the
// address unlock condition).
func ownerOf(o *chain.Output, t int64) (owner string, expired bool) {
	if o.Expiration != nil && t >= int64(o.Expiration.UnixTime) {
		return addrText(&o.Expiration.ReturnAddress), true
	}
	if o.Kind == chain.OutputAlias {
		return addrText(o.StateController), false
	}
	return addrText(o.Address), false
}

func newExplorerWant(truth *sim.Truth) *explorerWant {
	return newExplorerWantAt(truth, truth.Milestones[len(truth.Milestones)-1].Index)
}

// newExplorerWantAt is the model of the chain's ledger once milestone n was applied: the
// outputs created up to n and not spent by then, held as at n's time (the updates are
// the whole chain's).
func newExplorerWantAt(truth *sim.Truth, n uint32) *explorerWant {
	w := &explorerWant{ledgerTime: truth.Milestones[n-truth.Milestones[0].Index].Timestamp.Unix(),
		balances: map[string]*balanceWant{}, updates: map[string][]updateWant{}}
	for _, ot := range truth.Outputs {
		if ot.Output.Kind == chain.OutputLegacy {
			continue // not in the ledger state tables
		}
		w.addUpdates(ot)
		if ot.MilestoneIndex <= n && !(ot.Spent && ot.SpentMilestone <= n) {
			w.addBalance(&ot.Output)
		}
	}
	return w
}

func (w *explorerWant) addBalance(o *chain.Output) {
	t := w.ledgerTime
	owner, expired := ownerOf(o, t)
	b := w.balances[owner]
	if b == nil {
		b = &balanceWant{}
		w.balances[owner] = b
	}
	b.total += o.Amount
	switch {
	case o.Timelock != nil && t < int64(*o.Timelock):
		w.locked++
	case o.StorageDepositReturn != nil && !expired:
		b.available += o.Amount - o.StorageDepositReturn.Amount
		w.withSDR++
	default:
		b.available += o.Amount
		if o.Timelock != nil {
			w.unlocked++
		}
	}
	if o.StorageDepositReturn == nil && o.Timelock == nil && o.Expiration == nil {
		b.sigLocked += o.Amount
	}
	switch {
	case expired:
		w.expired++
	case o.Expiration != nil:
		w.expiring++
	}
}

// rolesIn lists the addresses an output names with their roles (docs/schema.md D19).
func rolesIn(o *chain.Output) map[string][]string {
	out := map[string][]string{}
	add := func(a *chain.Address, role string) {
		if a != nil {
			out[addrText(a)] = append(out[addrText(a)], role)
		}
	}
	if o.Kind != chain.OutputAlias {
		add(o.Address, "address")
	}
	if o.StorageDepositReturn != nil {
		add(&o.StorageDepositReturn.ReturnAddress, "dust_return_address")
	}
	if o.Expiration != nil {
		add(&o.Expiration.ReturnAddress, "expiration_return_address")
	}
	add(o.Sender, "sender")
	add(o.Issuer, "issuer")
	add(o.StateController, "state_controller")
	add(o.Governor, "governor")
	return out
}

func (w *explorerWant) addUpdates(ot *sim.OutputTruth) {
	for addr, roles := range rolesIn(&ot.Output) {
		slices.Sort(roles)
		u := updateWant{OutputID: ot.OutputID.String(), MilestoneIndex: ot.MilestoneIndex,
			Timestamp: ot.Timestamp.Unix(), Kind: ot.Output.Kind.String(), Roles: roles, Amount: explorer.U64(ot.Output.Amount)}
		w.updates[addr] = append(w.updates[addr], u)
		if ot.Spent {
			u.IsSpent, u.MilestoneIndex, u.Timestamp = true, ot.SpentMilestone, ot.SpentTimestamp.Unix()
			w.updates[addr] = append(w.updates[addr], u)
		}
	}
}

// sortedUpdates is the feed's order: newest first by (milestone desc, output ID,
// created before spent), or its exact reverse for oldest.
func sortedUpdates(us []updateWant, oldest bool) []updateWant {
	out := slices.Clone(us)
	slices.SortFunc(out, func(a, b updateWant) int {
		c := cmp.Or(cmp.Compare(b.MilestoneIndex, a.MilestoneIndex), cmp.Compare(a.OutputID, b.OutputID),
			cmpBool(a.IsSpent, b.IsSpent))
		if oldest {
			return -c
		}
		return c
	})
	return out
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}
