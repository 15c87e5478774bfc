package store

import (
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
)

// legacyRow is the unused row of a legacy output that message msgID created where w says.
func (b *builder) legacyRow(lo chain.LedgerOutput, w where, msgID string) LegacyRow {
	return LegacyRow{OutputID: lo.OutputID.String(), OutputType: int8(lo.Output.LegacyType), RangeID: w.rng,
		MilestoneIndex: int32(w.index), Timestamp: w.at, InclusionState: w.state, MessageID: msgID,
		Amount: amount(lo.Output.Amount), Address: b.addr(lo.Output.Address), Data: chain.EncodeOutput(lo.Output)}
}

func legacyPartition(r *LegacyRow) string { return "legacy_outputs/" + r.OutputID }

// legacyOutput adds the unused row of a created legacy output and its address hint.
func (b *builder) legacyOutput(w where, lo chain.LedgerOutput, msgID string) {
	r := b.legacyRow(lo, w, msgID)
	b.Hints.AddAddress(r.Address, chain.OutputLegacy.String(), "address", w.rng)
	b.addRow(cql.InsertLegacyOutput, w.ts, legacyPartition(&r), &r)
}

// legacySpent swaps the unused row for a used one, in one single-partition batch.
func (b *builder) legacySpent(ts int64, ls chain.LedgerSpent, rng int32) {
	lo := ls.LedgerOutput
	created := where{index: lo.MilestoneIndex, rng: rng, at: lo.Timestamp, state: ptr(int8(chain.Included))}
	r := b.legacyRow(lo, created, lo.MessageID.String())
	r.IsUsed = true
	b.addRow(cql.InsertLegacyOutput, ts, legacyPartition(&r), &r)
	r.IsUsed = false
	b.addRow(cql.DeleteLegacyOutput, ts, legacyPartition(&r), &r)
}
