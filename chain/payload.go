package chain

// Payload is one of *TaggedData, *Transaction or *MilestonePayload; a message without
// payload holds nil.
type Payload interface {
	payloadType() uint32
}

// TaggedData is arbitrary data indexed by an optional tag (<= 64 bytes).
type TaggedData struct {
	Tag  []byte
	Data []byte
}

func (*TaggedData) payloadType() uint32 { return PayloadTaggedData }

// Input references the output a transaction spends (a UTXO input).
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

// Unlock proves the right to spend the input at the same position. A signature unlock
// uses PublicKey and Signature (Ed25519 over the essence hash); the others use
// Reference, the index of an earlier unlock or input.
type Unlock struct {
	Kind      UnlockKind
	Reference uint16
	PublicKey [32]byte
	Signature [64]byte
}

// Transaction moves funds from Inputs to Outputs. Its essence is everything but the
// unlocks; the signatures sign the essence's hash.
type Transaction struct {
	NetworkID        uint64
	Inputs           []Input
	InputsCommitment [32]byte
	Outputs          []Output
	Payload          *TaggedData
	Unlocks          []Unlock
}

func (*Transaction) payloadType() uint32 { return PayloadTransaction }
