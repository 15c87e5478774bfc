package ingest

import (
	"math"
	"strconv"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/hints"
)

// outputRow is one output's row in its indexation table: the table, the partition key
// value and the values of the table's own columns (cql.OutputTable.Columns before the
// shared ones).
type outputRow struct {
	table    string
	key      string
	outputID string // "" for basic outputs, whose key is the output ID
	own      []any
	addrs    []hints.Address // Range left 0: set by the caller
	tag      hints.Tag
}

// chainKey returns the alias or NFT ID, derived from the output ID in the output that
// creates the chain (where the ID field is still zero).
func aliasKey(o *chain.Output, id chain.OutputID) string {
	if o.AliasID.IsZero() {
		return chain.AliasIDFromOutputID(id).String()
	}
	return o.AliasID.String()
}

func nftKey(o *chain.Output, id chain.OutputID) string {
	if o.NFTID.IsZero() {
		return chain.NFTIDFromOutputID(id).String()
	}
	return o.NFTID.String()
}

func (b *builder) dustReturn(o *chain.Output) string {
	if o.StorageDepositReturn == nil {
		return ""
	}
	return b.addr(&o.StorageDepositReturn.ReturnAddress)
}

// rowOf maps an output to its table row; ok is false for legacy outputs (their own
// table, see legacyOutput).
func (b *builder) rowOf(o *chain.Output, id chain.OutputID) (outputRow, bool) {
	oid := id.String()
	switch o.Kind {
	case chain.OutputBasic:
		a, dr, s, tag := b.addr(o.Address), b.dustReturn(o), b.addr(o.Sender), tagText(o.Tag)
		return outputRow{table: "basic_outputs", key: oid, own: []any{oid, opt(a), opt(dr), opt(s), opt(tag)},
			addrs: roles("basic", "address", a, "dust_return_address", dr, "sender", s),
			tag:   hints.Tag{Tag: tag, TableKind: hints.TableBasicOutput}}, true
	case chain.OutputAlias:
		key, sc, gov, is, s := aliasKey(o, id), b.addr(o.StateController), b.addr(o.Governor), b.addr(o.Issuer), b.addr(o.Sender)
		return outputRow{table: "alias_outputs", key: key, outputID: oid,
			own:   []any{key, oid, int32(o.StateIndex), opt(s), opt(is), opt(sc), opt(gov)},
			addrs: roles("alias", "state_controller", sc, "governor", gov, "issuer", is, "sender", s)}, true
	case chain.OutputFoundry:
		key, a := o.FoundryID.String(), b.addr(o.Address)
		return outputRow{table: "foundry_outputs", key: key, outputID: oid, own: []any{key, oid, opt(a)},
			addrs: roles("foundry", "address", a)}, true
	case chain.OutputNFT:
		key, a, dr, s, is, tag := nftKey(o, id), b.addr(o.Address), b.dustReturn(o), b.addr(o.Sender), b.addr(o.Issuer), tagText(o.Tag)
		return outputRow{table: "nft_outputs", key: key, outputID: oid,
			own:   []any{key, oid, opt(a), opt(dr), opt(s), opt(is), opt(tag)},
			addrs: roles("nft", "address", a, "dust_return_address", dr, "sender", s, "issuer", is),
			tag:   hints.Tag{Tag: tag, TableKind: hints.TableNFTOutput}}, true
	}
	return outputRow{}, false
}

// roles lists address hints of one output kind from (variant, address) pairs.
func roles(kind string, pairs ...string) []hints.Address {
	var out []hints.Address
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, hints.Address{Address: pairs[i+1], OutputKind: kind, Variant: pairs[i]})
	}
	return out
}

func (b *builder) addHints(row outputRow, rng int32) {
	for _, h := range row.addrs {
		b.hints.AddAddress(h.Address, h.OutputKind, h.Variant, rng)
	}
	b.hints.AddTag(row.tag.Tag, row.tag.TableKind, rng)
}

// output adds the row of a created output (pending or confirmed, as w says).
func (b *builder) output(w where, lo chain.LedgerOutput, msgID string) {
	o := &lo.Output
	if o.Kind == chain.OutputLegacy {
		b.legacyOutput(w, lo, msgID)
		return
	}
	row, ok := b.rowOf(o, lo.OutputID)
	if !ok {
		return
	}
	b.addHints(row, w.rng)
	sts := cql.Outputs[row.table]
	args := append(row.own, w.rng, int32(w.index), w.at, w.state, msgID, amount(o.Amount), chain.EncodeOutput(*o))
	if w.pending() {
		b.add(sts.InsertPending, w.ts, "", append(args, w.ttl)...)
		return
	}
	b.add(sts.Insert, w.ts, "", args...)
}

// spent records on an output's creating row which transaction spent it.
func (b *builder) spent(ts int64, ls chain.LedgerSpent) {
	o := &ls.Output
	created := ls.LedgerOutput
	rng := b.rangeOf(created.MilestoneIndex)
	if o.Kind == chain.OutputLegacy {
		b.legacySpent(ts, ls, rng)
		return
	}
	row, ok := b.rowOf(o, created.OutputID)
	if !ok {
		return
	}
	args := []any{ls.SpentBy.String(), int32(ls.SpentMilestoneIndex), row.key, rng, int32(created.MilestoneIndex), created.Timestamp}
	if row.outputID != "" {
		args = append(args, row.outputID)
	}
	b.add(cql.Outputs[row.table].MarkSpent, ts, "", args...)
}

// deletePending removes the pending rows of the outputs a now-referenced transaction created.
func (b *builder) deletePending(ts int64, tx *chain.Transaction) {
	txID := tx.ID()
	for j := range tx.Outputs {
		o := &tx.Outputs[j]
		if row, ok := b.rowOf(o, chain.NewOutputID(txID, uint16(j))); ok {
			b.add(cql.Outputs[row.table].DeletePending, ts, "", row.key, int32(cql.PendingRange))
		}
	}
}

func (b *builder) legacyOutput(w where, lo chain.LedgerOutput, msgID string) {
	a := b.addr(lo.Output.Address)
	b.hints.AddAddress(a, "legacy", "address", w.rng)
	b.add(cql.InsertLegacyOutput, w.ts, "legacy_outputs/"+lo.OutputID.String(), lo.OutputID.String(),
		int8(lo.Output.LegacyType), false, w.rng, int32(w.index), w.at, w.state, msgID, amount(lo.Output.Amount),
		opt(a), chain.EncodeOutput(lo.Output))
}

// legacySpent swaps the unused row for a used one, in one single-partition batch.
func (b *builder) legacySpent(ts int64, ls chain.LedgerSpent, rng int32) {
	lo := ls.LedgerOutput
	id, part := lo.OutputID.String(), "legacy_outputs/"+lo.OutputID.String()
	a := b.addr(lo.Output.Address)
	b.add(cql.InsertLegacyOutput, ts, part, id, int8(lo.Output.LegacyType), true, rng, int32(lo.MilestoneIndex),
		lo.Timestamp, int8(chain.Included), lo.MessageID.String(), amount(lo.Output.Amount), opt(a), chain.EncodeOutput(lo.Output))
	b.add(cql.DeleteLegacyOutput, ts, part, id, int8(lo.Output.LegacyType), false, rng, int32(lo.MilestoneIndex), lo.Timestamp)
}

// amount stores a uint64 in a bigint column; real supplies are far below 2^63 and
// validation refuses larger amounts, the clamp only keeps a bad value from wrapping.
func amount(v uint64) int64 {
	if v > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(v)
}

func itoa(v int32) string { return strconv.Itoa(int(v)) }
