package chain

import "golang.org/x/crypto/blake2b"

// Limits on milestone payloads (TIP-29, TIP-34, and iota.go where the TIPs are silent).
const (
	MaxMilestoneSignatures = 255
	MaxReceiptFunds        = 127
	MinMigratedDeposit     = 1_000_000
	maxProtocolParamsAhead = 30
)

// Encode serializes the milestone payload: type 7, essence, signatures.
func (mp *MilestonePayload) Encode() []byte { return encoded(mp, writeMilestone) }

// Essence serializes the milestone essence (index .. options): the part whose hash is
// the milestone ID and which the signatures sign.
func (mp *MilestonePayload) Essence() []byte { return encoded(mp, writeMilestoneEssence) }

// ID is the milestone ID: BLAKE2b-256 of Essence().
func (mp *MilestonePayload) ID() MilestoneID { return blake2b.Sum256(mp.Essence()) }

// DecodeMilestonePayload parses a serialized milestone payload (as a node serves
// /milestones/{id} in binary: it starts with the uint32 type 7).
func DecodeMilestonePayload(b []byte) (*MilestonePayload, error) {
	r := &reader{buf: b}
	var mp *MilestonePayload
	if typ := r.u32("milestone.type"); r.err == nil && typ != PayloadMilestone {
		r.fail("milestone.type", "payload type %d is not a milestone", typ)
	}
	if r.err == nil {
		mp = readMilestone(r, "milestone")
	}
	if err := r.finish("milestone"); err != nil {
		return nil, err
	}
	return mp, nil
}

func writeMilestone(w *writer, mp *MilestonePayload) {
	w.u32(PayloadMilestone)
	writeMilestoneEssence(w, mp)
	w.u8(uint8(len(mp.Signatures)))
	for _, s := range mp.Signatures {
		w.u8(SignatureEd25519)
		w.bytes(s.PublicKey[:])
		w.bytes(s.Signature[:])
	}
}

func writeMilestoneEssence(w *writer, mp *MilestonePayload) {
	w.u32(mp.Index)
	w.u32(mp.Timestamp)
	w.u8(mp.ProtocolVersion)
	w.bytes(mp.PreviousMilestoneID[:])
	writeParents(w, mp.Parents)
	w.bytes(mp.InclusionMerkleRoot[:])
	w.bytes(mp.AppliedMerkleRoot[:])
	w.bytes16(mp.Metadata)
	writeMilestoneOptions(w, mp)
}

func writeMilestoneOptions(w *writer, mp *MilestonePayload) {
	var e entries
	if mp.Receipt != nil {
		writeReceipt(e.add(int(OptionReceipt)), mp.Receipt)
	}
	if p := mp.ProtocolParams; p != nil {
		b := e.add(int(OptionProtocolParams))
		b.u32(p.TargetMilestoneIndex)
		b.u8(p.ProtocolVersion)
		b.bytes16(p.Params)
	}
	e.writeTo(w)
}

func writeReceipt(w *writer, rc *Receipt) {
	w.u32(rc.MigratedAt)
	w.bool(rc.Final)
	w.u16(uint16(len(rc.Funds)))
	for _, f := range rc.Funds {
		w.bytes(f.TailTransactionHash[:])
		w.address(f.Address)
		w.u64(f.Deposit)
	}
	w.framed(func(sub *writer) { writeTreasuryTransaction(sub, &rc.Transaction) })
}

func writeTreasuryTransaction(w *writer, tt *TreasuryTransaction) {
	w.u32(PayloadTreasuryTransaction)
	w.u8(TreasuryInput)
	w.bytes(tt.InputMilestoneID[:])
	w.u8(TreasuryOutput)
	w.u64(tt.OutputAmount)
}

// readMilestone reads what follows the payload type code.
func readMilestone(r *reader, path string) *MilestonePayload {
	mp := &MilestonePayload{Index: r.u32(joinField(path, "index"))}
	mp.Timestamp = r.u32(joinField(path, "timestamp"))
	mp.ProtocolVersion = r.u8(joinField(path, "protocolVersion"))
	if r.err == nil && mp.ProtocolVersion != ProtocolVersion {
		r.fail(joinField(path, "protocolVersion"), "unsupported version %d (want %d)", mp.ProtocolVersion, ProtocolVersion)
	}
	r.fill(joinField(path, "previousMilestoneId"), mp.PreviousMilestoneID[:])
	mp.Parents = readParents(r, joinField(path, "parents"))
	r.fill(joinField(path, "inclusionMerkleRoot"), mp.InclusionMerkleRoot[:])
	r.fill(joinField(path, "appliedMerkleRoot"), mp.AppliedMerkleRoot[:])
	if mp.Metadata = r.bytes16(joinField(path, "metadata"), 0, MaxMetadataLength); len(mp.Metadata) == 0 {
		mp.Metadata = nil
	}
	readMilestoneOptions(r, joinField(path, "options"), mp)
	mp.Signatures = readMilestoneSignatures(r, joinField(path, "signatures"))
	return mp
}

func readMilestoneOptions(r *reader, path string, mp *MilestonePayload) {
	readTypedList(r, path, func(field string, typ int) {
		switch typ {
		case int(OptionReceipt):
			mp.Receipt = readReceipt(r, field)
		case int(OptionProtocolParams):
			mp.ProtocolParams = readProtocolParamsOption(r, field, mp.Index)
		default:
			r.fail(joinField(field, "type"), "unknown milestone option type %d", typ)
		}
	})
}

func readProtocolParamsOption(r *reader, path string, index uint32) *ProtocolParamsOption {
	p := &ProtocolParamsOption{TargetMilestoneIndex: r.u32(joinField(path, "targetMilestoneIndex"))}
	target, at := uint64(p.TargetMilestoneIndex), uint64(index) // uint64: index+30 may pass 2^32
	if r.err == nil && (target <= at || target > at+maxProtocolParamsAhead) {
		r.fail(joinField(path, "targetMilestoneIndex"), "%d not in %d..%d", target, at+1, at+maxProtocolParamsAhead)
	}
	p.ProtocolVersion = r.u8(joinField(path, "protocolVersion"))
	p.Params = r.bytes16(joinField(path, "params"), 0, MaxMetadataLength)
	return p
}

func readReceipt(r *reader, path string) *Receipt {
	rc := &Receipt{MigratedAt: r.u32(joinField(path, "migratedAt"))}
	rc.Final = r.bool(joinField(path, "final"))
	n := int(r.u16(joinField(path, "funds")))
	if r.err == nil && (n < 1 || n > MaxReceiptFunds) {
		r.fail(joinField(path, "funds"), "count %d not in 1..%d", n, MaxReceiptFunds)
	}
	for i := 0; i < n && r.err == nil; i++ {
		rc.Funds = append(rc.Funds, readMigratedFunds(r, indexed(joinField(path, "funds"), i), rc.Funds))
	}
	present := r.framed(joinField(path, "transaction"), func(sub *reader) {
		rc.Transaction = readTreasuryTransaction(sub, joinField(path, "transaction"))
	})
	if r.err == nil && !present {
		r.fail(joinField(path, "transaction"), "a receipt needs its treasury transaction")
	}
	return rc
}

func readMigratedFunds(r *reader, path string, earlier []MigratedFunds) MigratedFunds {
	var f MigratedFunds
	r.fill(joinField(path, "tailTransactionHash"), f.TailTransactionHash[:])
	if r.err == nil && len(earlier) > 0 && !ascending(earlier[len(earlier)-1].TailTransactionHash[:], f.TailTransactionHash[:]) {
		r.fail(joinField(path, "tailTransactionHash"), "not sorted ascending or duplicate")
	}
	f.Address = r.address(joinField(path, "address"))
	if r.err == nil && f.Address.Kind != AddressEd25519 {
		r.fail(joinField(path, "address"), "must be an Ed25519 address, got %s", f.Address.Kind)
	}
	f.Deposit = r.u64(joinField(path, "deposit"))
	if r.err == nil && f.Deposit < MinMigratedDeposit {
		r.fail(joinField(path, "deposit"), "%d below the minimum %d", f.Deposit, MinMigratedDeposit)
	}
	return f
}

func readTreasuryTransaction(r *reader, path string) TreasuryTransaction {
	var tt TreasuryTransaction
	if typ := r.u32(joinField(path, "type")); r.err == nil && typ != PayloadTreasuryTransaction {
		r.fail(joinField(path, "type"), "payload type %d is not a treasury transaction", typ)
	}
	if t := r.u8(joinField(path, "input.type")); r.err == nil && t != TreasuryInput {
		r.fail(joinField(path, "input.type"), "unknown treasury input type %d", t)
	}
	r.fill(joinField(path, "input.milestoneId"), tt.InputMilestoneID[:])
	if t := r.u8(joinField(path, "output.type")); r.err == nil && t != TreasuryOutput {
		r.fail(joinField(path, "output.type"), "unknown treasury output type %d", t)
	}
	tt.OutputAmount = r.u64(joinField(path, "output.amount"))
	return tt
}

// readMilestoneSignatures reads 1..255 Ed25519 signature blocks sorted by public key.
func readMilestoneSignatures(r *reader, path string) []MilestoneSignature {
	n := int(r.u8(path))
	if r.err == nil && n < 1 {
		r.fail(path, "a milestone needs at least one signature")
		return nil
	}
	sigs := make([]MilestoneSignature, 0, n)
	for i := 0; i < n && r.err == nil; i++ {
		var s MilestoneSignature
		readEd25519(r, indexed(path, i), &s.PublicKey, &s.Signature)
		if r.err == nil && i > 0 && !ascending(sigs[i-1].PublicKey[:], s.PublicKey[:]) {
			r.fail(joinField(indexed(path, i), "publicKey"), "not sorted ascending or duplicate")
		}
		sigs = append(sigs, s)
	}
	return sigs
}
