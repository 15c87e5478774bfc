package tip25

import (
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// DecodeBlock reads a block's TIP-25 JSON strictly (unknown types and fields refused) and
// returns it as the chain codec decodes its bytes, so every TIP-18/20/24/29 rule applies.
func DecodeBlock(data []byte) (*chain.Message, error) {
	d := &decoder{}
	j := d.object("block", data)
	m := &chain.Message{ProtocolVersion: uint8(j.uint("protocolVersion", 8))}
	m.Parents = d.ids32(j, "parents", chain.MaxParents)
	if j.raw("payload", false) != nil {
		m.Payload = d.blockPayload(j.child("payload"))
	}
	m.Nonce = j.u64("nonce")
	j.done()
	if d.err != nil {
		return nil, d.err
	}
	out, err := chain.DecodeMessage(chain.EncodeMessage(m))
	if err != nil {
		return nil, fmt.Errorf("tip25: block breaks the protocol rules: %w", err)
	}
	return out, nil
}

func (d *decoder) blockPayload(p *obj) chain.Payload {
	switch p.typ("block payload", chain.PayloadTaggedData, chain.PayloadTransaction, chain.PayloadMilestone) {
	case chain.PayloadTaggedData:
		return d.taggedData(p)
	case chain.PayloadTransaction:
		return d.transaction(p)
	case chain.PayloadMilestone:
		return d.milestone(p)
	}
	return nil
}

// taggedData reads what follows "type"; tag and data may be absent, "" or "0x".
func (d *decoder) taggedData(p *obj) *chain.TaggedData {
	td := &chain.TaggedData{Tag: p.bytes("tag", false), Data: p.bytes("data", false)}
	p.done()
	return td
}

func (d *decoder) transaction(p *obj) *chain.Transaction {
	e := p.child("essence")
	e.typ("transaction essence", chain.EssenceRegular)
	tx := &chain.Transaction{NetworkID: e.u64("networkId")}
	for i, raw := range e.list("inputs", true, chain.MaxInputs) {
		in := d.object(indexed(e.at("inputs"), i), raw)
		in.typ("input", chain.InputUTXO)
		var input chain.Input
		in.fixed("transactionId", input.TransactionID[:])
		input.Index = uint16(in.uint("transactionOutputIndex", 16))
		in.done()
		tx.Inputs = append(tx.Inputs, input)
	}
	e.fixed("inputsCommitment", tx.InputsCommitment[:])
	for i, raw := range e.list("outputs", true, chain.MaxOutputs) {
		tx.Outputs = append(tx.Outputs, d.output(d.object(indexed(e.at("outputs"), i), raw)))
	}
	if e.raw("payload", false) != nil {
		ep := e.child("payload")
		ep.typ("transaction essence payload", chain.PayloadTaggedData)
		tx.Payload = d.taggedData(ep)
	}
	e.done()
	for i, raw := range p.list("unlocks", true, chain.MaxInputs) {
		tx.Unlocks = append(tx.Unlocks, d.unlock(d.object(indexed(p.at("unlocks"), i), raw)))
	}
	p.done()
	return tx
}

func (d *decoder) unlock(u *obj) chain.Unlock {
	k := chain.UnlockKind(u.typ("unlock", uint8(chain.UnlockSignature), uint8(chain.UnlockReference),
		uint8(chain.UnlockAlias), uint8(chain.UnlockNFT)))
	un := chain.Unlock{Kind: k}
	if k == chain.UnlockSignature {
		d.signature(u.child("signature"), &un.PublicKey, &un.Signature)
	} else {
		un.Reference = uint16(u.uint("reference", 16))
	}
	u.done()
	return un
}

// signature reads an Ed25519 signature block {type 0, publicKey, signature}.
func (d *decoder) signature(s *obj, key *[32]byte, sig *[64]byte) {
	s.typ("signature", chain.SignatureEd25519)
	s.fixed("publicKey", key[:])
	s.fixed("signature", sig[:])
	s.done()
}

// ids32 reads a list of 32-byte IDs (block or milestone parents).
func (d *decoder) ids32(j *obj, key string, maxLen int) []chain.MessageID {
	items := j.list(key, true, maxLen)
	out := make([]chain.MessageID, len(items))
	for i, raw := range items {
		d.fixedValue(indexed(j.at(key), i), raw, out[i][:])
	}
	return out
}
