package chain

// Payload is one of *TaggedData, *Transaction or *MilestonePayload; a
// message without payload holds nil.
type Payload interface {
	payloadType() uint32
}

// Payload type codes (TIP-24).
const (
	payloadTransaction uint32 = 6
	payloadMilestone   uint32 = 7
	payloadTaggedData  uint32 = 5
)

// TaggedData is arbitrary data indexed by an optional tag (<= 64 bytes).
type TaggedData struct {
	Tag  []byte
	Data []byte
}

func (*TaggedData) payloadType() uint32 { return payloadTaggedData }

// Input references the output a transaction spends.
type Input struct {
	TransactionID TransactionID
	Index         uint16
}

// OutputID returns the ID of the spent output.
func (in Input) OutputID() OutputID { return NewOutputID(in.TransactionID, in.Index) }

// UnlockKind is the unlock type (TIP-20 codes).
type UnlockKind uint8

// Unlock kinds.
const (
	UnlockSignature UnlockKind = 0
	UnlockReference UnlockKind = 1
	UnlockAlias     UnlockKind = 2
	UnlockNFT       UnlockKind = 3
)

func (k UnlockKind) String() string {
	switch k {
	case UnlockSignature:
		return "signature"
	case UnlockReference:
		return "reference"
	case UnlockAlias:
		return "alias"
	case UnlockNFT:
		return "nft"
	}
	return "unknown"
}

// Unlock proves the right to spend the input at the same position. A
// signature unlock uses PublicKey and Signature; the others use Reference,
// the index of an earlier unlock.
type Unlock struct {
	Kind      UnlockKind
	Reference uint16
	PublicKey [32]byte
	Signature [64]byte
}

// Transaction moves funds from Inputs to Outputs.
type Transaction struct {
	NetworkID        uint64
	Inputs           []Input
	InputsCommitment [32]byte
	Outputs          []Output
	Payload          *TaggedData
	Unlocks          []Unlock
}

func (*Transaction) payloadType() uint32 { return payloadTransaction }

// MilestonePayload marks a milestone; its message is the last one the
// milestone references.
type MilestonePayload struct {
	Index               uint32
	Timestamp           uint32
	PreviousMilestoneID MilestoneID
	Parents             []MessageID
}

func (*MilestonePayload) payloadType() uint32 { return payloadMilestone }
