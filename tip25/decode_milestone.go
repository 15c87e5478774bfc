package tip25

import (
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// DecodeMilestone reads a milestone payload's TIP-25 JSON (as /milestones/{id} serves it)
// strictly and returns it as the chain codec decodes its bytes.
func DecodeMilestone(data []byte) (*chain.MilestonePayload, error) {
	d := &decoder{}
	j := d.object("milestone", data)
	j.typ("payload", chain.PayloadMilestone)
	mp := d.milestone(j)
	if d.err != nil {
		return nil, d.err
	}
	out, err := chain.DecodeMilestonePayload(mp.Encode())
	if err != nil {
		return nil, fmt.Errorf("tip25: milestone breaks TIP-29: %w", err)
	}
	return out, nil
}

// milestone reads what follows "type". Metadata and options may be absent (nodes) or
// "0x" and [] (iota.js's deserializer).
func (d *decoder) milestone(j *obj) *chain.MilestonePayload {
	mp := &chain.MilestonePayload{Index: uint32(j.uint("index", 32)), Timestamp: uint32(j.uint("timestamp", 32)),
		ProtocolVersion: uint8(j.uint("protocolVersion", 8))}
	j.fixed("previousMilestoneId", mp.PreviousMilestoneID[:])
	mp.Parents = d.ids32(j, "parents", chain.MaxParents)
	j.fixed("inclusionMerkleRoot", mp.InclusionMerkleRoot[:])
	j.fixed("appliedMerkleRoot", mp.AppliedMerkleRoot[:])
	mp.Metadata = j.bytes("metadata", false)
	// The chain encoder writes the receipt before the parameters, so typed() must hold
	// the JSON to that order too.
	d.typed(j, "options", false, "milestone option", []uint8{chain.OptionReceipt, chain.OptionProtocolParams}, func(o *obj, t uint8) {
		if t == chain.OptionReceipt {
			mp.Receipt = d.receipt(o)
		} else {
			mp.ProtocolParams = &chain.ProtocolParamsOption{TargetMilestoneIndex: uint32(o.uint("targetMilestoneIndex", 32)),
				ProtocolVersion: uint8(o.uint("protocolVersion", 8)), Params: o.bytes("params", true)}
		}
	})
	for i, raw := range j.list("signatures", true, chain.MaxMilestoneSignatures) {
		var s chain.MilestoneSignature
		d.signature(d.object(indexed(j.at("signatures"), i), raw), &s.PublicKey, &s.Signature)
		mp.Signatures = append(mp.Signatures, s)
	}
	j.done()
	return mp
}

func (d *decoder) receipt(o *obj) *chain.Receipt {
	rc := &chain.Receipt{MigratedAt: uint32(o.uint("migratedAt", 32)), Final: o.boolean("final")}
	for i, raw := range o.list("funds", true, chain.MaxReceiptFunds) {
		f := d.object(indexed(o.at("funds"), i), raw)
		var mf chain.MigratedFunds
		f.fixed("tailTransactionHash", mf.TailTransactionHash[:])
		mf.Address = *d.address(f, "address")
		mf.Deposit = f.u64("deposit")
		f.done()
		rc.Funds = append(rc.Funds, mf)
	}
	tt := o.child("transaction")
	tt.typ("receipt transaction", chain.PayloadTreasuryTransaction)
	in, out := tt.child("input"), tt.child("output")
	in.typ("treasury input", chain.TreasuryInput)
	in.fixed("milestoneId", rc.Transaction.InputMilestoneID[:])
	out.typ("treasury output", chain.TreasuryOutput)
	rc.Transaction.OutputAmount = out.u64("amount")
	in.done()
	out.done()
	tt.done()
	return rc
}
