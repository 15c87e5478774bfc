package store

import (
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
)

// addressRoles are the output columns that hold an address: the roles (variants) of
// addresses_hints.
var addressRoles = map[string]bool{"address": true, "dust_return_address": true, "sender": true, "issuer": true,
	"state_controller": true, "governor": true}

// tagKinds are the tag_hints kinds of the output tables with a tag column.
var tagKinds = map[chain.OutputKind]string{chain.OutputBasic: TagKindBasicOutput, chain.OutputNFT: TagKindNFTOutput}

// outputRow is an output's row in its table, with its key, addresses and tag; the
// milestone's columns are the caller's. ok is false for legacy outputs (their own table,
// see legacyOutput).
func (b *builder) outputRow(o *chain.Output, id chain.OutputID) (r OutputRow, t cql.OutputTable, ok bool) {
	if t, ok = outputTables[o.Kind]; !ok {
		return r, t, false
	}
	r = OutputRow{Kind: o.Kind, Table: t.Table, OutputID: id.String(),
		Address: b.addr(o.Address), DustReturnAddress: b.dustReturn(o), Sender: b.addr(o.Sender),
		Issuer: b.addr(o.Issuer), StateController: b.addr(o.StateController), Governor: b.addr(o.Governor),
		Tag: TagText(o.Tag)}
	*fieldsOf(&r)(t.Key).(*string) = outputKey(o, id)
	if o.Kind == chain.OutputAlias {
		r.StateIndex = ptr(int32(o.StateIndex))
	}
	return r, t, true
}

// outputKey is the partition key of an output's row: its ID, or its chain's ID.
func outputKey(o *chain.Output, id chain.OutputID) string {
	switch o.Kind {
	case chain.OutputAlias:
		return o.ResolvedAliasID(id).String()
	case chain.OutputNFT:
		return o.ResolvedNFTID(id).String()
	case chain.OutputFoundry:
		return o.FoundryID.String()
	}
	return id.String()
}

func (b *builder) dustReturn(o *chain.Output) string {
	if o.StorageDepositReturn == nil {
		return ""
	}
	return b.addr(&o.StorageDepositReturn.ReturnAddress)
}

// addHints records the partition hints of a row in partition rng: every address column
// of its table (the role is the column's name) and its tag.
func (b *builder) addHints(r *OutputRow, t cql.OutputTable, rng int32) {
	for _, col := range t.Columns {
		if addressRoles[col] {
			b.Hints.AddAddress(r.Role(col), r.Kind.String(), col, rng)
		}
	}
	if kind, ok := tagKinds[r.Kind]; ok {
		b.Hints.AddTag(r.Tag, kind, rng)
	}
}

// output adds the row of a created output (pending or confirmed, as w says).
func (b *builder) output(w where, lo chain.LedgerOutput, msgID string) {
	o := &lo.Output
	if o.Kind == chain.OutputLegacy {
		b.legacyOutput(w, lo, msgID)
		return
	}
	r, t, ok := b.outputRow(o, lo.OutputID)
	if !ok {
		return
	}
	b.addHints(&r, t, w.rng)
	r.RangeID, r.MilestoneIndex, r.Timestamp, r.InclusionState = w.rng, int32(w.index), w.at, w.state
	r.MessageID, r.Amount, r.Data = msgID, amount(o.Amount), chain.EncodeOutput(*o)
	st := cql.Outputs[t.Table].Insert
	if w.pending() {
		st = cql.Outputs[t.Table].InsertPending
	}
	b.addRow(st, w.ts, "", &r, w.ttlArgs()...)
	if !w.pending() {
		b.createdLedger(w, &lo, msgID, r.Data)
	}
}

// spent records on an output's creating row which transaction spent it.
func (b *builder) spent(ts int64, ls chain.LedgerSpent) {
	created := ls.LedgerOutput
	rng := b.rangeOf(created.MilestoneIndex)
	if ls.Output.Kind == chain.OutputLegacy {
		b.legacySpent(ts, ls, rng)
		return
	}
	r, t, ok := b.outputRow(&ls.Output, created.OutputID)
	if !ok {
		return
	}
	r.RangeID, r.MilestoneIndex, r.Timestamp = rng, int32(created.MilestoneIndex), created.Timestamp
	r.SpentBy, r.SpentMilestoneIndex = ls.SpentBy.String(), ptr(int32(ls.SpentMilestoneIndex))
	b.addRow(cql.Outputs[t.Table].MarkSpent, ts, "", &r)
	b.spentLedger(ts, &ls, created.MessageID.String())
}

// deletePending removes the pending rows of the outputs a now-referenced transaction created.
func (b *builder) deletePending(ts int64, tx *chain.Transaction) {
	txID := tx.ID()
	for j := range tx.Outputs {
		if r, t, ok := b.outputRow(&tx.Outputs[j], chain.NewOutputID(txID, uint16(j))); ok {
			r.RangeID = PendingRange
			b.addRow(cql.Outputs[t.Table].DeletePending, ts, "", &r)
		}
	}
}

// pendingOutputs indexes the outputs an unreferenced transaction would create, in the
// pending partition with a TTL.
func (b *builder) pendingOutputs(w where, msgID string, tx *chain.Transaction) {
	txID := tx.ID()
	for j := range tx.Outputs {
		b.output(w, chain.LedgerOutput{OutputID: chain.NewOutputID(txID, uint16(j)), Output: tx.Outputs[j]}, msgID)
	}
}
