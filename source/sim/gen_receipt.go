package sim

import (
	"encoding/binary"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// GenesisTreasury is the sim network's treasury before its first receipt: the output of
// the zero milestone ID, as a network's genesis snapshot holds it.
const GenesisTreasury = 1_000_000_000_000

// treasury is the treasury output: the milestone that made it and its amount.
type treasury struct {
	id     chain.MilestoneID
	amount uint64
}

// receipt is the receipt option of a milestone Options.Receipts names, else nil. Its 1-3
// funds (derived, not drawn from the main random stream, so no other milestone moves) are
// paid from the treasury the previous receipt left. It is final unless a later receipt
// migrates at the same legacy index, as a coordinator splits one legacy milestone's
// funds. The migrated funds create no outputs here: the ledger stays the one without
// receipts.
func (b *builder) receipt() *chain.Receipt {
	g := b.g
	migratedAt, ok := g.opts.Receipts[b.rec.index]
	if !ok {
		return nil
	}
	rc := &chain.Receipt{MigratedAt: migratedAt, Final: !g.laterReceiptAt(b.rec.index, migratedAt),
		Transaction: chain.TreasuryTransaction{InputMilestoneID: g.treasury.id, OutputAmount: g.treasury.amount}}
	r := derive(g.opts.Seed, "receipt", uint64(b.rec.index))
	for i := range 1 + int(r[0]%3) {
		var f chain.MigratedFunds
		f.TailTransactionHash[0] = byte(i) // ascending, as TIP-34 orders them
		copy(f.TailTransactionHash[1:], r[:])
		f.Address = g.addrs[int(binary.LittleEndian.Uint16(r[2*i:]))%len(g.addrs)]
		f.Deposit = chain.MinMigratedDeposit * uint64(1+r[8+i])
		rc.Funds = append(rc.Funds, f)
		rc.Transaction.OutputAmount -= f.Deposit
	}
	return rc
}

// laterReceiptAt says whether a milestone after index carries a receipt migrating at
// migratedAt too.
func (g *generator) laterReceiptAt(index, migratedAt uint32) bool {
	for at, m := range g.opts.Receipts {
		if at > index && m == migratedAt {
			return true
		}
	}
	return false
}
