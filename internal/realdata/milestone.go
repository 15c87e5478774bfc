package realdata

import (
	"encoding/json"
	"fmt"
)

type chrMilestonePayload struct {
	Essence    chrEssence     `json:"essence"`
	Signatures []chrSignature `json:"signatures"`
}

type chrEssence struct {
	Index               flexUint          `json:"index"`
	Timestamp           flexUint          `json:"timestamp"`
	ProtocolVersion     uint8             `json:"protocol_version"`
	PreviousMilestoneID bin               `json:"previous_milestone_id"`
	Parents             []bin             `json:"parents"`
	InclusionMerkleRoot bin               `json:"inclusion_merkle_root"`
	AppliedMerkleRoot   bin               `json:"applied_merkle_root"`
	Metadata            bin               `json:"metadata"`
	Options             []json.RawMessage `json:"options"`
}

type chrSignature struct {
	Kind      string `json:"kind"`
	PublicKey bin    `json:"public_key"`
	Signature bin    `json:"signature"`
}

// SerializeMilestonePayload turns a milestone payload in Chronicle's JSON model into the wire
// payload (TIP-29: uint32 type 7, essence, signatures) and returns it with the essence bytes.
func SerializeMilestonePayload(js []byte) (payload, essence []byte, err error) {
	var p chrMilestonePayload
	if err := strictUnmarshal(js, &p); err != nil {
		return nil, nil, fmt.Errorf("milestone payload: %w", err)
	}
	w := &writer{}
	w.u32(7)
	w.essence(&p.Essence)
	essenceEnd := len(w.buf)
	w.count8(len(p.Signatures), "milestone signatures")
	for _, s := range p.Signatures {
		if s.Kind != "ed25519" {
			w.fail("milestone signature: unknown kind %q", s.Kind)
		}
		w.u8(0)
		w.fixedBytes(s.PublicKey, 32, "signature public key")
		w.fixedBytes(s.Signature, 64, "signature")
	}
	if w.err != nil {
		return nil, nil, fmt.Errorf("milestone payload: %w", w.err)
	}
	return w.buf, w.buf[4:essenceEnd:essenceEnd], nil // capped: appending must not overwrite the signatures
}

// essence writes the milestone essence, index through options.
func (w *writer) essence(e *chrEssence) {
	w.u32(w.narrow(e.Index, "index"))
	w.u32(w.narrow(e.Timestamp, "timestamp"))
	w.u8(e.ProtocolVersion)
	w.fixedBytes(e.PreviousMilestoneID, 32, "previous milestone ID")
	w.count8(len(e.Parents), "milestone parents")
	for _, p := range e.Parents {
		w.fixedBytes(p, 32, "milestone parent")
	}
	w.fixedBytes(e.InclusionMerkleRoot, 32, "inclusion merkle root")
	w.fixedBytes(e.AppliedMerkleRoot, 32, "applied merkle root")
	w.bytes16(e.Metadata, "milestone metadata")
	w.count8(len(e.Options), "milestone options")
	for _, o := range e.Options {
		w.milestoneOption(o)
	}
}

type chrParametersOption struct {
	Kind                 string   `json:"kind"`
	TargetMilestoneIndex flexUint `json:"target_milestone_index"`
	ProtocolVersion      uint8    `json:"protocol_version"`
	BinaryParameters     bin      `json:"binary_parameters"`
}

// milestoneOption writes a protocol-parameters option (type 1). Receipts (type 0) are refused:
// no data here has one, and their Chronicle shape (treasury transaction, funds) is not checked
// against any real record, so serializing them would be a guess.
func (w *writer) milestoneOption(js json.RawMessage) {
	var kind struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(js, &kind); err != nil {
		w.fail("milestone option: %v", err)
		return
	}
	if kind.Kind != "parameters" {
		w.fail("milestone option: kind %q not supported", kind.Kind)
		return
	}
	var o chrParametersOption
	if err := strictUnmarshal(js, &o); err != nil {
		w.fail("parameters milestone option: %v", err)
		return
	}
	w.u8(1)
	w.u32(w.narrow(o.TargetMilestoneIndex, "target milestone index"))
	w.u8(o.ProtocolVersion)
	w.bytes16(o.BinaryParameters, "binary parameters")
}

// milestoneFromJSON fills a Milestone's payload fields from Chronicle's payload JSON.
func milestoneFromJSON(js []byte) (*Milestone, error) {
	payload, essence, err := SerializeMilestonePayload(js)
	if err != nil {
		return nil, err
	}
	var p chrMilestonePayload
	_ = json.Unmarshal(js, &p) // already decoded strictly above
	e := p.Essence
	m := &Milestone{Index: uint32(e.Index), Timestamp: uint32(e.Timestamp), ProtocolVersion: e.ProtocolVersion,
		Metadata: e.Metadata, Payload: payload, Essence: essence}
	copy(m.PreviousMilestoneID[:], e.PreviousMilestoneID)
	copy(m.InclusionMerkleRoot[:], e.InclusionMerkleRoot)
	copy(m.AppliedMerkleRoot[:], e.AppliedMerkleRoot)
	m.Parents = ids32(e.Parents)
	for _, s := range p.Signatures {
		var sig Signature
		copy(sig.PublicKey[:], s.PublicKey)
		copy(sig.Signature[:], s.Signature)
		m.Signatures = append(m.Signatures, sig)
	}
	return m, nil
}

// ids32 converts byte strings already checked to be 32 bytes long.
func ids32(bs []bin) [][32]byte {
	out := make([][32]byte, len(bs))
	for i, b := range bs {
		copy(out[i][:], b)
	}
	return out
}
