package ingest_test

import (
	"fmt"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

// Chronicle's analytics families (migration 000013, docs/analytics.md) restated from the
// truth, independently of the analytics package: the six activity families of every
// milestone (milestone_families), each milestone's ledger deltas (ledger_family_deltas)
// and the daily active addresses (daily_families). No fold runs in this test, so
// milestone_families holds no ledger family or protocol_parameters row and
// address_balances is empty.

// truthTx is an included transaction as the families read it: the outputs it consumed
// (with their spend) and the outputs it created, in order.
type truthTx struct {
	consumed []*sim.OutputTruth
	created  []*sim.OutputTruth
}

// families adds the family rows of every milestone, and an empty address_balances.
func (m *modelBuilder) families(truth *sim.Truth) {
	created, consumed := map[uint32][]*sim.OutputTruth{}, map[uint32][]*sim.OutputTruth{}
	for _, o := range sortedOutputs(truth) {
		if o.MilestoneIndex > 0 {
			created[o.MilestoneIndex] = append(created[o.MilestoneIndex], o)
		}
		if o.Spent {
			consumed[o.SpentMilestone] = append(consumed[o.SpentMilestone], o)
		}
	}
	for _, ms := range truth.Milestones {
		txs, err := includedTxs(truth, ms)
		if err != nil {
			m.err = err
			return
		}
		at := ms.Timestamp.Unix()
		figures := map[string]map[string]int64{
			"block_activity":   blockFigures(truth, ms),
			"milestone_size":   sizeFigures(truth, ms),
			"active_addresses": {"count": int64(activeCount(txs))},
			"base_tokens":      baseTokenFigures(txs, at),
			"output_activity":  outputActivityFigures(txs),
			"transaction_size": txSizeFigures(txs),
		}
		for family, figs := range figures {
			m.add("milestone_families", row{"family": family, "ms_range_id": m.rng(ms.Index),
				"milestone_index": int32(ms.Index), "milestone_timestamp": ms.Timestamp, "figures": figs, "detail": nil})
		}
		figs, balances := ledgerDelta(created[ms.Index], consumed[ms.Index])
		m.add("ledger_family_deltas", row{"ms_range_id": m.rng(ms.Index), "milestone_index": int32(ms.Index),
			"figures": figs, "balances": balances})
	}
	m.rows["address_balances"] = []row{}
}

// dailyFamily adds the daily active_addresses row of a complete date: the date's
// distinct owners of every output booked or spent, its sent_or_received set.
func (m *modelBuilder) dailyFamily(d time.Time, active int) {
	m.add("daily_families", row{"family": "active_addresses", "year": int32(d.Year()), "date": d,
		"figures": map[string]int64{"count": int64(active)}})
}

// includedTxs are the milestone's included transactions in white-flag order.
func includedTxs(truth *sim.Truth, ms sim.MilestoneTruth) ([]truthTx, error) {
	var out []truthTx
	for _, id := range ms.Messages {
		mt := truth.Messages[id]
		tx := mt.Message.TransactionOf()
		if tx == nil || mt.InclusionState != chain.Included {
			continue
		}
		var t truthTx
		for _, in := range tx.Inputs {
			t.consumed = append(t.consumed, truth.Outputs[in.OutputID()])
		}
		for j := range tx.Outputs {
			o := truth.Outputs[chain.NewOutputID(tx.ID(), uint16(j))]
			if o == nil {
				return nil, fmt.Errorf("output %d of transaction %s is not in the truth", j, tx.ID())
			}
			t.created = append(t.created, o)
		}
		out = append(out, t)
	}
	return out, nil
}

// payloadName is Chronicle's name of a block's payload type.
func payloadName(msg *chain.Message) string {
	switch msg.Payload.(type) {
	case *chain.MilestonePayload:
		return "milestone"
	case *chain.TaggedData:
		return "tagged_data"
	case *chain.Transaction:
		return "transaction"
	case *chain.TreasuryTransaction:
		return "treasury_transaction"
	}
	return "no_payload"
}

// blockFigures counts the cone's blocks by payload type and by inclusion state.
func blockFigures(truth *sim.Truth, ms sim.MilestoneTruth) map[string]int64 {
	f := map[string]int64{}
	for _, name := range []string{"milestone", "no_payload", "tagged_data", "transaction", "treasury_transaction",
		"confirmed", "conflicting", "no_transaction"} {
		f[name+"_count"] = 0
	}
	state := map[chain.InclusionState]string{chain.Included: "confirmed", chain.Conflicting: "conflicting",
		chain.NoTransaction: "no_transaction"}
	for _, id := range ms.Messages {
		mt := truth.Messages[id]
		f[payloadName(mt.Message)+"_count"]++
		if s, ok := state[mt.InclusionState]; ok {
			f[s+"_count"]++
		}
	}
	return f
}

// sizeFigures are the byte lengths of the cone's blocks, in all and by payload type.
func sizeFigures(truth *sim.Truth, ms sim.MilestoneTruth) map[string]int64 {
	f := map[string]int64{"total_milestone_bytes": 0}
	for _, name := range []string{"milestone", "tagged_data", "transaction", "treasury_transaction"} {
		f["total_"+name+"_payload_bytes"] = 0
	}
	for _, id := range ms.Messages {
		mt := truth.Messages[id]
		n := int64(len(mt.Raw))
		f["total_milestone_bytes"] += n
		if key := "total_" + payloadName(mt.Message) + "_payload_bytes"; key != "total_no_payload_payload_bytes" {
			f[key] += n
		}
	}
	return f
}

// ownerAt is the owner of an output at unix time t: a basic or NFT output whose
// expiration has come belongs to the expiration's return address.
func ownerAt(o *chain.Output, t int64) (string, bool) {
	if e := o.Expiration; e != nil && (o.Kind == chain.OutputBasic || o.Kind == chain.OutputNFT) && t >= int64(e.UnixTime) {
		return e.ReturnAddress.Bech32(sim.HRP), true
	}
	return owner(o)
}

// activeCount is the number of distinct owners of the transactions' consumed outputs
// (at their spend) and created outputs (no expiration judged).
func activeCount(txs []truthTx) int {
	seen := map[string]bool{}
	for _, tx := range txs {
		for _, o := range tx.consumed {
			if a, ok := ownerAt(&o.Output, o.SpentTimestamp.Unix()); ok {
				seen[a] = true
			}
		}
		for _, o := range tx.created {
			if a, ok := owner(&o.Output); ok {
				seen[a] = true
			}
		}
	}
	return len(seen)
}

// baseTokenFigures: booked is every owned created amount; transferred the owners' positive
// balance changes per transaction (created owners judged at the milestone).
func baseTokenFigures(txs []truthTx, at int64) map[string]int64 {
	var booked, transferred int64
	for _, tx := range txs {
		change := map[string]int64{}
		for _, o := range tx.created {
			if a, ok := ownerAt(&o.Output, at); ok {
				booked += int64(o.Output.Amount)
				change[a] += int64(o.Output.Amount)
			}
		}
		for _, o := range tx.consumed {
			if a, ok := ownerAt(&o.Output, o.SpentTimestamp.Unix()); ok {
				change[a] -= int64(o.Output.Amount)
			}
		}
		for _, c := range change {
			if c > 0 {
				transferred += c
			}
		}
	}
	return map[string]int64{"booked_amount": booked, "transferred_amount": transferred}
}

// chainSide maps one side's chain IDs of one kind (rendered as text) to the first
// output holding each.
func chainSide(outs []*sim.OutputTruth, kind chain.OutputKind) map[string]*chain.Output {
	side := map[string]*chain.Output{}
	for _, o := range outs {
		if o.Output.Kind != kind {
			continue
		}
		var id string
		switch kind {
		case chain.OutputAlias:
			id = fmt.Sprint(o.Output.ResolvedAliasID(o.OutputID))
		case chain.OutputNFT:
			id = fmt.Sprint(o.Output.ResolvedNFTID(o.OutputID))
		case chain.OutputFoundry:
			id = fmt.Sprint(o.Output.FoundryID)
		}
		if side[id] == nil {
			side[id] = &o.Output
		}
	}
	return side
}

// outputActivityFigures compares each transaction's chain IDs on its two sides: only
// created, on both (transferred; an alias counted by what changed), only consumed.
func outputActivityFigures(txs []truthTx) map[string]int64 {
	f := map[string]int64{}
	for _, k := range []string{"nft.created_count", "nft.transferred_count", "nft.destroyed_count",
		"alias.created_count", "alias.governor_changed_count", "alias.state_changed_count", "alias.destroyed_count",
		"foundry.created_count", "foundry.transferred_count", "foundry.destroyed_count"} {
		f[k] = 0
	}
	kinds := map[chain.OutputKind]string{chain.OutputNFT: "nft.", chain.OutputAlias: "alias.", chain.OutputFoundry: "foundry."}
	for _, tx := range txs {
		for kind, prefix := range kinds {
			in, out := chainSide(tx.consumed, kind), chainSide(tx.created, kind)
			for id, o := range out {
				before := in[id]
				switch {
				case before == nil:
					f[prefix+"created_count"]++
				case kind != chain.OutputAlias:
					f[prefix+"transferred_count"]++
				default:
					if before.StateIndex != o.StateIndex {
						f["alias.state_changed_count"]++
					}
					if addrText(before.Governor) != addrText(o.Governor) {
						f["alias.governor_changed_count"]++
					}
				}
			}
			for id := range in {
				if out[id] == nil {
					f[prefix+"destroyed_count"]++
				}
			}
		}
	}
	return f
}

// txSizeFigures counts each transaction in the bucket of its input count and of its
// output count: 1..7 alone, then up to 15, 31, 63, and more.
func txSizeFigures(txs []truthTx) map[string]int64 {
	names := []string{"single(1)", "single(2)", "single(3)", "single(4)", "single(5)", "single(6)", "single(7)",
		"small", "medium", "large", "huge"}
	f := map[string]int64{}
	for _, side := range []string{"input_buckets.", "output_buckets."} {
		for _, n := range names {
			f[side+n] = 0
		}
	}
	bucket := func(n int) string {
		switch {
		case n <= 7:
			return fmt.Sprintf("single(%d)", n)
		case n < 16:
			return "small"
		case n < 32:
			return "medium"
		case n < 64:
			return "large"
		}
		return "huge"
	}
	for _, tx := range txs {
		f["input_buckets."+bucket(len(tx.consumed))]++
		f["output_buckets."+bucket(len(tx.created))]++
	}
	return f
}

// ledgerKindNames are the output kinds of the ledger families (legacy outputs are none).
var ledgerKindNames = map[chain.OutputKind]string{chain.OutputBasic: "basic", chain.OutputAlias: "alias",
	chain.OutputFoundry: "foundry", chain.OutputNFT: "nft"}

// ledgerDelta is what the milestone's created outputs add to the ledger figures
// ("<family>.<path>") and owners' balances, less what its consumed outputs take away;
// changes that come out zero are not kept.
func ledgerDelta(created, consumed []*sim.OutputTruth) (figs, balances map[string]int64) {
	figs, balances = map[string]int64{}, map[string]int64{}
	for _, o := range created {
		addLedgerOutput(figs, balances, o, 1)
	}
	for _, o := range consumed {
		addLedgerOutput(figs, balances, o, -1)
	}
	for _, m := range []map[string]int64{figs, balances} {
		for k, v := range m {
			if v == 0 {
				delete(m, k)
			}
		}
	}
	return figs, balances
}

// addLedgerOutput adds one output, times sign: its count and amount by kind; its rent
// bytes (34 key bytes for its ID, its packed bytes and 40 bytes of metadata as data) and
// storage deposit (their rent cost, capped at the amount); a basic or NFT output's
// unlock conditions; a genesis output as unclaimed; its amount to its owner's balance.
func addLedgerOutput(figs, balances map[string]int64, o *sim.OutputTruth, sign int64) {
	out := &o.Output
	kind, ok := ledgerKindNames[out.Kind]
	if !ok {
		return
	}
	amount := int64(out.Amount)
	add := func(key string, v int64) { figs[key] += sign * v }
	add("ledger_outputs."+kind+".count", 1)
	add("ledger_outputs."+kind+".amount", amount)
	packed := int64(len(chain.EncodeOutput(*out)))
	rent := sim.Network().Params.RentStructure
	cost := int64(rent.VByteCost) * ((packed+40)*int64(rent.VByteFactorData) + 34*int64(rent.VByteFactorKey))
	add("ledger_size.total_key_bytes", 34)
	add("ledger_size.total_data_bytes", packed+40)
	add("ledger_size.total_storage_deposit_amount", min(cost, amount))
	if out.Kind == chain.OutputBasic || out.Kind == chain.OutputNFT {
		if out.Timelock != nil {
			add("unlock_conditions.timelock.count", 1)
			add("unlock_conditions.timelock.amount", amount)
		}
		if out.Expiration != nil {
			add("unlock_conditions.expiration.count", 1)
			add("unlock_conditions.expiration.amount", amount)
		}
		if sdr := out.StorageDepositReturn; sdr != nil {
			add("unlock_conditions.storage_deposit_return.count", 1)
			add("unlock_conditions.storage_deposit_return.amount", amount)
			add("unlock_conditions.storage_deposit_return_inner_amount", int64(sdr.Amount))
		}
	}
	if o.MilestoneIndex == 0 {
		add("unclaimed_tokens.unclaimed_count", 1)
		add("unclaimed_tokens.unclaimed_amount", amount)
	}
	if a, ok := owner(out); ok {
		balances[a] += sign * amount
	}
}
