package chain

// Type codes of the Stardust wire forms. They are untyped constants, so that the
// binary codec (uint32 payload types) and the JSON forms (uint8 "type") share them.

// Unlock condition type codes (TIP-18).
const (
	CondAddress = iota
	CondStorageDepositReturn
	CondTimelock
	CondExpiration
	CondStateController
	CondGovernor
	CondImmutableAlias
)

// Feature type codes (TIP-18).
const (
	FeatSender = iota
	FeatIssuer
	FeatMetadata
	FeatTag
)

// Payload type codes (TIP-24; type 4 only inside a receipt).
const (
	PayloadTreasuryTransaction = 4
	PayloadTaggedData          = 5
	PayloadTransaction         = 6
	PayloadMilestone           = 7
)

// Transaction part type codes (TIP-20).
const (
	EssenceRegular   = 1
	InputUTXO        = 0
	SignatureEd25519 = 0
)

// Milestone option and treasury type codes (TIP-29, TIP-34).
const (
	OptionReceipt        = 0
	OptionProtocolParams = 1
	TreasuryInput        = 1
	TreasuryOutput       = 2
)
