package ingest_test

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

// The ledger-state tables (migration 000008) restated from the truth, independently of
// store/write_ledger.go: which outputs are unspent, which addresses each output names and
// in what role, and the ledger updates each creation and spend makes.

// ledgerRoles lists an output's (address, role) pairs, in the order the roles are named
// here. An alias's owner is its state controller, so an alias has no "address" role.
func ledgerRoles(o *chain.Output) [][2]string {
	a := func(x *chain.Address) string {
		if x == nil {
			return ""
		}
		return x.Bech32(sim.HRP)
	}
	var pairs [][2]string
	add := func(addr, role string) {
		if addr != "" {
			pairs = append(pairs, [2]string{addr, role})
		}
	}
	if o.Kind != chain.OutputAlias {
		add(a(o.Address), "address")
	}
	if o.StorageDepositReturn != nil {
		add(a(&o.StorageDepositReturn.ReturnAddress), "dust_return_address")
	}
	if o.Expiration != nil {
		add(a(&o.Expiration.ReturnAddress), "expiration_return_address")
	}
	add(a(o.Sender), "sender")
	add(a(o.Issuer), "issuer")
	add(a(o.StateController), "state_controller")
	add(a(o.Governor), "governor")
	return pairs
}

// unspentColumns are the columns an output's unspent rows hold besides their keys.
func unspentColumns(o *sim.OutputTruth) row {
	out := &o.Output
	r := row{"milestone_index": int32(o.MilestoneIndex), "amount": int64(out.Amount),
		"native_token_count": int32(len(out.NativeTokens)), "dust_return_address": nil, "dust_return_amount": nil,
		"timelock": nil, "expiration": nil, "expiration_return_address": nil, "chain_id": nil}
	role := roles(out)
	for _, col := range []string{"sender", "tag", "issuer", "state_controller", "governor"} {
		r[col] = role[col]
	}
	r["owner"] = role["address"]
	if sdr := out.StorageDepositReturn; sdr != nil {
		r["dust_return_address"], r["dust_return_amount"] = role["dust_return_address"], int64(sdr.Amount)
	}
	if out.Timelock != nil {
		r["timelock"] = int64(*out.Timelock)
	}
	if exp := out.Expiration; exp != nil {
		r["expiration"], r["expiration_return_address"] = int64(exp.UnixTime), exp.ReturnAddress.Bech32(sim.HRP)
	}
	if out.Kind != chain.OutputBasic {
		r["chain_id"] = outputKey(o)
	}
	return r
}

// ledger adds the ledger-state rows of one (non-legacy) output.
func (m *modelBuilder) ledger(o *sim.OutputTruth) {
	kind, rng := o.Output.Kind.String(), m.rng(o.MilestoneIndex)
	pairs := ledgerRoles(&o.Output)
	for _, p := range pairs {
		m.add("addresses_hints", row{"address": p[0], "output_kind": kind, "variant": p[1], "ms_range_id": rng})
	}
	// An unspent output's rows are in the unspent tables, a spent one's in their spent
	// twins, with the spending milestone.
	table, cols := "unspent_outputs", unspentColumns(o)
	if o.Spent {
		table, cols["spent_milestone_index"] = "spent_outputs", int32(o.SpentMilestone)
	}
	key := row{"output_kind": kind, "ms_range_id": rng, "created_at": o.Timestamp.Unix(), "output_id": o.OutputID.String()}
	m.add(table, merged(key, cols))
	// The by-address rows carry the output: its bytes, its block and, spent, its spender.
	carried := row{"output_data": chain.EncodeOutput(o.Output), "message_id": o.MessageID.String()}
	if o.Spent {
		carried["spent_by"] = o.SpentBy.String()
	}
	for _, p := range pairs {
		m.add(table+"_by_address", merged(key, cols, carried, row{"address": p[0], "role": p[1]}))
	}
	m.ledgerUpdates(o, pairs, o.MilestoneIndex, false)
	if o.Spent {
		m.ledgerUpdates(o, pairs, o.SpentMilestone, true)
	}
}

// ledgerUpdates adds the updates of a creation (spent false) or a spend in milestone
// index: one per address the output names, and the milestone's own.
func (m *modelBuilder) ledgerUpdates(o *sim.OutputTruth, pairs [][2]string, index uint32, spent bool) {
	kind, rng, at := o.Output.Kind.String(), m.rng(index), o.Timestamp
	if spent {
		at = o.SpentTimestamp
	}
	byAddr := map[string][]string{}
	for _, p := range pairs {
		byAddr[p[0]] = append(byAddr[p[0]], p[1])
	}
	for addr, rs := range byAddr {
		m.add("addresses_hints", row{"address": addr, "output_kind": "any", "variant": "ledger_update", "ms_range_id": rng})
		m.add("address_ledger_updates", row{"address": addr, "ms_range_id": rng, "milestone_index": int32(index),
			"output_id": o.OutputID.String(), "is_spent": spent, "ms_timestamp": at, "output_kind": kind,
			"roles": slices.Sorted(slices.Values(rs)), "amount": int64(o.Output.Amount)})
	}
	m.add("milestone_ledger_updates", row{"milestone_index": int32(index), "is_spent": spent,
		"output_id": o.OutputID.String(), "output_kind": kind, "amount": int64(o.Output.Amount),
		"address": roles(&o.Output)["address"]})
}

func merged(rows ...row) row {
	out := row{}
	for _, r := range rows {
		for k, v := range r {
			out[k] = v
		}
	}
	return out
}

// ledgerAnalytics restates the richest addresses and token distribution at the newest
// milestone: each unspent output counts, whole, for its owner (an alias's state
// controller), or for its expiration return address once the expiration time is reached
// at that milestone's timestamp; ranks by balance, then address; magnitudes by the
// number of decimal digits of a balance.
func (m *modelBuilder) ledgerAnalytics(truth *sim.Truth) {
	at := truth.Milestones[len(truth.Milestones)-1].Timestamp.Unix()
	balances := map[string]int64{}
	for _, o := range truth.Outputs {
		if o.Spent || o.Output.Kind == chain.OutputLegacy || o.Output.Address == nil {
			continue
		}
		owner := o.Output.Address.Bech32(sim.HRP)
		if exp := o.Output.Expiration; exp != nil && at >= int64(exp.UnixTime) {
			owner = exp.ReturnAddress.Bech32(sim.HRP)
		}
		balances[owner] += int64(o.Output.Amount)
	}
	type rich struct {
		addr    string
		balance int64
	}
	var ranked []rich
	byMagnitude := map[int32][2]int64{}
	for a, b := range balances {
		ranked = append(ranked, rich{a, b})
		mag := int32(len(strconv.FormatInt(b, 10)) - 1)
		byMagnitude[mag] = [2]int64{byMagnitude[mag][0] + 1, byMagnitude[mag][1] + b}
	}
	slices.SortFunc(ranked, func(x, y rich) int {
		if x.balance != y.balance {
			return cmp.Compare(y.balance, x.balance)
		}
		return strings.Compare(x.addr, y.addr)
	})
	li := int32(truth.UpTo)
	for i, r := range ranked[:min(len(ranked), 1000)] {
		m.add("richest_addresses", row{"ledger_index": li, "rank": int32(i + 1), "address": r.addr, "balance": r.balance})
	}
	for mag, v := range byMagnitude {
		m.add("token_distribution", row{"ledger_index": li, "magnitude": mag, "address_count": v[0], "total_balance": v[1]})
	}
	m.add("indexer_meta", row{"concern": "ledger_analytics", "value": notNull, "watermark": int64(truth.UpTo),
		"updated_by": "test", "updated_at": notNull})
}
