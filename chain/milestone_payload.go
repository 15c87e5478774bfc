package chain

// MilestonePayload is a milestone as the coordinator issued it (TIP-29). Its essence is
// everything but the signatures; the milestone ID is the essence's hash, and every
// signature signs that ID.
type MilestonePayload struct {
	Index               uint32
	Timestamp           uint32
	ProtocolVersion     uint8
	PreviousMilestoneID MilestoneID
	Parents             []MessageID
	InclusionMerkleRoot [32]byte
	AppliedMerkleRoot   [32]byte
	Metadata            []byte
	Receipt             *Receipt              // option 0
	ProtocolParams      *ProtocolParamsOption // option 1
	Signatures          []MilestoneSignature
}

func (*MilestonePayload) payloadType() uint32 { return PayloadMilestone }

// MilestoneSignature is one coordinator key's Ed25519 signature of the milestone ID.
type MilestoneSignature struct {
	PublicKey [32]byte
	Signature [64]byte
}

// Receipt lists funds migrated from the legacy network and the treasury transaction
// that pays for them (TIP-34).
type Receipt struct {
	MigratedAt  uint32
	Final       bool
	Funds       []MigratedFunds
	Transaction TreasuryTransaction
}

// MigratedFunds is one receipt entry: the legacy bundle's tail transaction hash, the
// Stardust address credited and the amount.
type MigratedFunds struct {
	TailTransactionHash [49]byte
	Address             Address
	Deposit             uint64
}

// TreasuryTransaction moves the treasury from the output the named milestone left to a
// new treasury output of OutputAmount.
type TreasuryTransaction struct {
	InputMilestoneID MilestoneID
	OutputAmount     uint64
}

func (*TreasuryTransaction) payloadType() uint32 { return PayloadTreasuryTransaction }

// ProtocolParamsOption announces protocol parameters that take effect at
// TargetMilestoneIndex; Params is their serialization (see DecodeProtocolParameters).
type ProtocolParamsOption struct {
	TargetMilestoneIndex uint32
	ProtocolVersion      uint8
	Params               []byte
}
