package api

import (
	"strconv"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// receiptJSON is a receipt milestone option (TIP-34).
type receiptJSON struct {
	Type        string              `json:"type"` // "receipt"
	MigratedAt  uint32              `json:"migratedAt"`
	Final       bool                `json:"final"`
	Funds       []migratedFundsJSON `json:"funds"`
	Transaction treasuryTxJSON      `json:"transaction"`
}

type migratedFundsJSON struct {
	TailTransactionHash string `json:"tailTransactionHash"`
	Address             string `json:"address"`
	Deposit             string `json:"deposit"`
}

type treasuryTxJSON struct {
	InputMilestoneID string `json:"inputMilestoneId"`
	OutputAmount     string `json:"outputAmount"`
}

// protocolParamsJSON is a protocol-parameters milestone option.
type protocolParamsJSON struct {
	Type                 string `json:"type"` // "protocolParameters"
	TargetMilestoneIndex uint32 `json:"targetMilestoneIndex"`
	ProtocolVersion      uint8  `json:"protocolVersion"`
	Params               string `json:"params"`
}

func newMilestonePayloadJSON(p *chain.MilestonePayload, hrp string) *milestonePayloadJSON {
	j := &milestonePayloadJSON{Type: "milestone", MilestoneID: p.ID().String(), Index: p.Index,
		Timestamp: p.Timestamp, ProtocolVersion: p.ProtocolVersion, PreviousMilestoneID: p.PreviousMilestoneID.String(),
		Parents: idTexts(p.Parents), InclusionMerkleRoot: hexText(p.InclusionMerkleRoot[:]),
		AppliedMerkleRoot: hexText(p.AppliedMerkleRoot[:]), Metadata: hexText(p.Metadata)}
	if r := p.Receipt; r != nil {
		j.Options = append(j.Options, newReceiptJSON(r, hrp))
	}
	if pp := p.ProtocolParams; pp != nil {
		j.Options = append(j.Options, &protocolParamsJSON{Type: "protocolParameters",
			TargetMilestoneIndex: pp.TargetMilestoneIndex, ProtocolVersion: pp.ProtocolVersion, Params: hexText(pp.Params)})
	}
	for _, s := range p.Signatures {
		j.Signatures = append(j.Signatures, signatureJSON{PublicKey: hexText(s.PublicKey[:]), Signature: hexText(s.Signature[:])})
	}
	return j
}

func newReceiptJSON(r *chain.Receipt, hrp string) *receiptJSON {
	j := &receiptJSON{Type: "receipt", MigratedAt: r.MigratedAt, Final: r.Final,
		Transaction: treasuryTxJSON{InputMilestoneID: r.Transaction.InputMilestoneID.String(),
			OutputAmount: strconv.FormatUint(r.Transaction.OutputAmount, 10)}}
	for _, f := range r.Funds {
		j.Funds = append(j.Funds, migratedFundsJSON{TailTransactionHash: hexText(f.TailTransactionHash[:]),
			Address: addressText(&f.Address, hrp), Deposit: strconv.FormatUint(f.Deposit, 10)})
	}
	return j
}
