package chain

import "golang.org/x/crypto/blake2b"

// Message limits and the protocol version this codec speaks.
const (
	ProtocolVersion uint8 = 2
	MaxMessageSize        = 32 * 1024
	MinParents            = 1
	MaxParents            = 8
)

// Message is what the protocol calls a block: 1-8 parents (sorted, unique), an optional
// payload and a nonce.
type Message struct {
	ProtocolVersion uint8
	Parents         []MessageID
	// Payload is nil, *TaggedData, *Transaction or *MilestonePayload.
	Payload Payload
	Nonce   uint64
}

// Encode serializes the message; see EncodeMessage.
func (m *Message) Encode() []byte { return EncodeMessage(m) }

// ID is the BLAKE2b-256 hash of Encode().
func (m *Message) ID() MessageID { return MessageIDOf(m.Encode()) }

// MessageIDOf hashes an already serialized message.
func MessageIDOf(raw []byte) MessageID { return blake2b.Sum256(raw) }

// TransactionOf returns the message's transaction, or nil.
func (m *Message) TransactionOf() *Transaction {
	tx, _ := m.Payload.(*Transaction)
	return tx
}

// MilestoneOf returns the message's milestone payload, or nil.
func (m *Message) MilestoneOf() *MilestonePayload {
	mp, _ := m.Payload.(*MilestonePayload)
	return mp
}

// Tag returns the tag of the message's tagged data, whether the payload itself or the
// one inside a transaction; nil if there is none.
func (m *Message) Tag() []byte {
	switch p := m.Payload.(type) {
	case *TaggedData:
		return p.Tag
	case *Transaction:
		if p.Payload != nil {
			return p.Payload.Tag
		}
	}
	return nil
}
