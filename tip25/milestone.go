package tip25

import (
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// MilestoneJSON is a milestone payload (type 7). Metadata and Options are omitted when
// empty (iota.go's omitempty); Options holds *ReceiptJSON and *ProtocolParamsOptionJSON.
type MilestoneJSON struct {
	Type                uint8           `json:"type"`
	Index               uint32          `json:"index"`
	Timestamp           uint32          `json:"timestamp"`
	ProtocolVersion     uint8           `json:"protocolVersion"`
	PreviousMilestoneID string          `json:"previousMilestoneId"`
	Parents             []string        `json:"parents"`
	InclusionMerkleRoot string          `json:"inclusionMerkleRoot"`
	AppliedMerkleRoot   string          `json:"appliedMerkleRoot"`
	Metadata            string          `json:"metadata,omitempty"`
	Options             []any           `json:"options,omitempty"`
	Signatures          []SignatureJSON `json:"signatures"`
}

// ReceiptJSON is the receipt milestone option: type 0 (the yaml's 3 is a Chrysalis
// leftover; iota.go and iota.js use 0).
type ReceiptJSON struct {
	Type        uint8                    `json:"type"`
	MigratedAt  uint32                   `json:"migratedAt"`
	Final       bool                     `json:"final"`
	Funds       []MigratedFundsJSON      `json:"funds"`
	Transaction *TreasuryTransactionJSON `json:"transaction"`
}

// MigratedFundsJSON is one receipt entry; Deposit is a decimal string (iota.js
// IMigratedFunds.deposit: string; the yaml says integer).
type MigratedFundsJSON struct {
	TailTransactionHash string      `json:"tailTransactionHash"`
	Address             AddressJSON `json:"address"`
	Deposit             string      `json:"deposit"`
}

// TreasuryTransactionJSON is the treasury transaction payload (type 4).
type TreasuryTransactionJSON struct {
	Type   uint8              `json:"type"`
	Input  TreasuryInputJSON  `json:"input"`
	Output TreasuryOutputJSON `json:"output"`
}

// TreasuryInputJSON is the treasury input (type 1): the milestone whose treasury is spent.
type TreasuryInputJSON struct {
	Type        uint8  `json:"type"`
	MilestoneID string `json:"milestoneId"`
}

// TreasuryOutputJSON is the treasury output (type 2).
type TreasuryOutputJSON struct {
	Type   uint8  `json:"type"`
	Amount string `json:"amount"`
}

// ProtocolParamsOptionJSON is the protocol-parameters milestone option (type 1); Params is
// the serialized parameters in hex. /info's pendingProtocolParameters lists the same objects.
type ProtocolParamsOptionJSON struct {
	Type                 uint8  `json:"type"`
	TargetMilestoneIndex uint32 `json:"targetMilestoneIndex"`
	ProtocolVersion      uint8  `json:"protocolVersion"`
	Params               string `json:"params"`
}

// Milestone returns the TIP-25 form of a milestone payload.
func Milestone(mp *chain.MilestonePayload) (*MilestoneJSON, error) {
	j := &MilestoneJSON{Type: chain.PayloadMilestone, Index: mp.Index, Timestamp: mp.Timestamp,
		ProtocolVersion: mp.ProtocolVersion, PreviousMilestoneID: hexOf(mp.PreviousMilestoneID[:]),
		Parents: ids(mp.Parents), InclusionMerkleRoot: hexOf(mp.InclusionMerkleRoot[:]),
		AppliedMerkleRoot: hexOf(mp.AppliedMerkleRoot[:]), Metadata: optHex(mp.Metadata),
		Signatures: make([]SignatureJSON, len(mp.Signatures))}
	if mp.Receipt != nil {
		r, err := Receipt(mp.Receipt)
		if err != nil {
			return nil, fmt.Errorf("milestone %d: %w", mp.Index, err)
		}
		j.Options = append(j.Options, r)
	}
	if mp.ProtocolParams != nil {
		j.Options = append(j.Options, ProtocolParamsOption(*mp.ProtocolParams))
	}
	for i, s := range mp.Signatures {
		j.Signatures[i] = *signature(s.PublicKey, s.Signature)
	}
	return j, nil
}

// Receipt returns the TIP-25 form of a receipt (also what /receipts lists).
func Receipt(rc *chain.Receipt) (*ReceiptJSON, error) {
	j := &ReceiptJSON{Type: chain.OptionReceipt, MigratedAt: rc.MigratedAt, Final: rc.Final,
		Funds: make([]MigratedFundsJSON, len(rc.Funds)), Transaction: TreasuryTransaction(&rc.Transaction)}
	for i, f := range rc.Funds {
		a, err := Address(f.Address)
		if err != nil {
			return nil, fmt.Errorf("receipt fund %d: %w", i, err)
		}
		j.Funds[i] = MigratedFundsJSON{TailTransactionHash: hexOf(f.TailTransactionHash[:]), Address: *a, Deposit: u64(f.Deposit)}
	}
	return j, nil
}

// TreasuryTransaction returns the TIP-25 form of a treasury transaction payload.
func TreasuryTransaction(tt *chain.TreasuryTransaction) *TreasuryTransactionJSON {
	return &TreasuryTransactionJSON{Type: chain.PayloadTreasuryTransaction,
		Input:  TreasuryInputJSON{Type: chain.TreasuryInput, MilestoneID: hexOf(tt.InputMilestoneID[:])},
		Output: TreasuryOutputJSON{Type: chain.TreasuryOutput, Amount: u64(tt.OutputAmount)}}
}

// ProtocolParamsOption returns the TIP-25 form of a protocol-parameters option.
func ProtocolParamsOption(p chain.ProtocolParamsOption) *ProtocolParamsOptionJSON {
	return &ProtocolParamsOptionJSON{Type: chain.OptionProtocolParams, TargetMilestoneIndex: p.TargetMilestoneIndex,
		ProtocolVersion: p.ProtocolVersion, Params: hexOf(p.Params)}
}
