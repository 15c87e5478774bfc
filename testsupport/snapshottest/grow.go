package snapshottest

import (
	"bytes"
	"math/rand/v2"
	"slices"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// grower makes milestones one after another from the ledger so far.
type grower struct {
	c       *Chain
	created []chain.LedgerOutput // created by milestones, spent or not (see c.consumedAt)
	prev    chain.MilestoneID
}

func newGrower(c *Chain) *grower { return &grower{c: c} }

// milestone makes milestone index: it consumes Changes unspent outputs, creates as many
// outputs of the same total for other owners, and at the receipt milestone migrates
// funds out of the treasury.
func (g *grower) milestone(index uint32) *chain.ConfirmedMilestone {
	c, rng := g.c, g.c.rng(index)
	at := Timestamp(index)
	mp := &chain.MilestonePayload{Index: index, Timestamp: uint32(at.Unix()), ProtocolVersion: chain.ProtocolVersion,
		PreviousMilestoneID: g.prev, Parents: []chain.MessageID{chain.MessageID(c.derive("parent", uint64(index)))}}
	cm := &chain.ConfirmedMilestone{Index: index, Timestamp: at, PreviousMilestoneID: g.prev, Milestone: mp}
	spender := chain.TransactionID(c.derive("spend-tx", uint64(index)))
	var total uint64
	for range c.opts.Changes {
		lo := g.pickUnspent(rng)
		c.consumedAt[lo.OutputID] = index
		total += lo.Output.Amount
		cm.Consumed = append(cm.Consumed, chain.LedgerSpent{LedgerOutput: lo, SpentBy: spender,
			SpentMilestoneIndex: index, SpentTimestamp: at})
	}
	block := chain.MessageID(c.derive("block", uint64(index)))
	g.create(cm, spender, block, total, c.opts.Changes, rng)
	tr := c.Treasury[index-1]
	if index == c.opts.Receipt {
		tr = g.receipt(cm, tr, rng)
	}
	mp.Sign(c.keys...)
	cm.MilestoneID = mp.ID()
	g.prev = cm.MilestoneID
	if index == c.opts.Receipt {
		tr.MilestoneID = cm.MilestoneID
	}
	c.Treasury = append(c.Treasury, tr)
	return cm
}

// create adds n basic outputs of the transaction tx summing to total.
func (g *grower) create(cm *chain.ConfirmedMilestone, tx chain.TransactionID, block chain.MessageID, total uint64, n int, rng *rand.Rand) {
	for j := range n {
		amount := total
		if q := total / uint64(n-j); j < n-1 && q > 1 {
			amount = q/2 + rng.Uint64N(q)
		}
		amount = min(amount, total)
		total -= amount
		owner := g.c.Address(rng.IntN(g.c.opts.Addresses))
		lo := chain.LedgerOutput{OutputID: chain.NewOutputID(tx, uint16(j)), MessageID: block,
			Output:         chain.Output{Kind: chain.OutputBasic, Amount: amount, Address: &owner},
			MilestoneIndex: cm.Index, Timestamp: cm.Timestamp}
		cm.Created = append(cm.Created, lo)
		g.created = append(g.created, lo)
	}
}

// receipt migrates two deposits out of the treasury (TIP-34): the milestone's receipt
// names them and a treasury transaction, and its diff creates their outputs.
func (g *grower) receipt(cm *chain.ConfirmedMilestone, tr Treasury, rng *rand.Rand) Treasury {
	rc := &chain.Receipt{MigratedAt: cm.Index, Final: false}
	tx := chain.TransactionID(g.c.derive("migration-tx", uint64(cm.Index)))
	var migrated uint64
	for j := range 2 {
		owner := g.c.Address(rng.IntN(g.c.opts.Addresses))
		deposit := 1_000_000 + rng.Uint64N(1_000_000)
		migrated += deposit
		var tail [49]byte
		h := g.c.derive("tail", uint64(cm.Index)*10+uint64(j))
		copy(tail[:], h[:])
		rc.Funds = append(rc.Funds, chain.MigratedFunds{TailTransactionHash: tail, Address: owner, Deposit: deposit})
		lo := chain.LedgerOutput{OutputID: chain.NewOutputID(tx, uint16(j)), Output: chain.Output{Kind: chain.OutputBasic,
			Amount: deposit, Address: &owner}, MilestoneIndex: cm.Index, Timestamp: cm.Timestamp}
		cm.Created = append(cm.Created, lo)
		g.created = append(g.created, lo)
	}
	slices.SortFunc(rc.Funds, func(a, b chain.MigratedFunds) int { // TIP-34: sorted by tail transaction hash
		return bytes.Compare(a.TailTransactionHash[:], b.TailTransactionHash[:])
	})
	rc.Transaction = chain.TreasuryTransaction{InputMilestoneID: tr.MilestoneID, OutputAmount: tr.Amount - migrated}
	cm.Milestone.Receipt = rc
	return Treasury{Amount: tr.Amount - migrated}
}

// pickUnspent draws an output unspent so far: a created one half of the time, else a
// genesis one.
func (g *grower) pickUnspent(rng *rand.Rand) chain.LedgerOutput {
	for {
		var lo chain.LedgerOutput
		if len(g.created) > 0 && rng.IntN(2) == 0 {
			lo = g.created[rng.IntN(len(g.created))]
		} else {
			lo = g.c.Genesis(rng.IntN(g.c.opts.Outputs))
		}
		if _, spent := g.c.consumedAt[lo.OutputID]; !spent {
			return lo
		}
	}
}
