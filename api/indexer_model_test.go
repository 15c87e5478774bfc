package api

import (
	"slices"
	"strings"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

// unspentModel is an unspent output of the sim's ledger as of its newest milestone, with
// the fields TIP-26 filters read, computed from the output itself (not the store).
type unspentModel struct {
	id        string
	kind      string
	createdAt int64
	out       *chain.Output
}

// unspentOutputs lists the sim's unspent Stardust outputs in TIP-26 order.
func (e *env) unspentOutputs() []unspentModel { return e.modelOutputs(e.truth.UpTo, false) }

// everyOutput lists the sim's Stardust outputs, spent or not, in TIP-26 order: what
// includeSpent=true lists.
func (e *env) everyOutput() []unspentModel { return e.modelOutputs(e.truth.UpTo, true) }

// modelOutputs lists the sim's Stardust outputs created by milestone n and, unless
// spent, not spent by then, in TIP-26 order: the ledger once n was applied.
func (e *env) modelOutputs(n uint32, spent bool) []unspentModel {
	var out []unspentModel
	for id, ot := range e.truth.Outputs {
		if ot.MilestoneIndex > n || (ot.Spent && ot.SpentMilestone <= n && !spent) {
			continue
		}
		switch ot.Output.Kind {
		case chain.OutputBasic, chain.OutputAlias, chain.OutputFoundry, chain.OutputNFT:
			out = append(out, unspentModel{id: id.String(), kind: ot.Output.Kind.String(),
				createdAt: ot.Timestamp.Unix(), out: &ot.Output})
		}
	}
	slices.SortFunc(out, func(a, b unspentModel) int {
		if a.createdAt != b.createdAt {
			return int(a.createdAt - b.createdAt)
		}
		return strings.Compare(a.id, b.id)
	})
	return out
}

// bech is an optional address in the network's form ("" when absent).
func bech(a *chain.Address) string {
	if a == nil {
		return ""
	}
	return a.Bech32(sim.HRP)
}

func (m *unspentModel) owner() string { return bech(m.out.Address) }

func (m *unspentModel) sdrAddress() string {
	if m.out.StorageDepositReturn == nil {
		return ""
	}
	return m.out.StorageDepositReturn.ReturnAddress.Bech32(sim.HRP)
}

func (m *unspentModel) expirationReturn() string {
	if m.out.Expiration == nil {
		return ""
	}
	return m.out.Expiration.ReturnAddress.Bech32(sim.HRP)
}

// unlockableBy is TIP-26's unlockableByAddress as inx-indexer (Stardust) reads it. A
// foundry is unlockable by an alias address alone, its immutable alias's: for any other
// address inx-indexer's combined query leaves the foundry query out
// (FoundryFilterOptions in pkg/indexer/combined.go).
func (m *unspentModel) unlockableBy(a string) bool {
	switch m.out.Kind {
	case chain.OutputAlias:
		return bech(m.out.StateController) == a || bech(m.out.Governor) == a
	case chain.OutputFoundry:
		addr, err := chain.ParseAddress(a)
		return err == nil && addr.Kind == chain.AddressAlias && m.owner() == a
	}
	return m.owner() == a || m.expirationReturn() == a || m.sdrAddress() == a
}

func (m *unspentModel) timelock() (int64, bool) {
	if m.out.Timelock == nil {
		return 0, false
	}
	return int64(*m.out.Timelock), true
}

func (m *unspentModel) expiration() (int64, bool) {
	if m.out.Expiration == nil {
		return 0, false
	}
	return int64(m.out.Expiration.UnixTime), true
}
