package chain

import "time"

// ConfirmedMilestone is everything one milestone confirmed: its messages in
// white-flag order (the milestone message last) and the ledger changes.
type ConfirmedMilestone struct {
	Index               uint32
	Timestamp           time.Time // UTC, second precision
	MilestoneID         MilestoneID
	PreviousMilestoneID MilestoneID
	MessageID           MessageID // the message carrying the milestone payload
	Messages            []ReferencedMessage
	Created             []LedgerOutput
	Consumed            []LedgerSpent
}

// ReferencedMessage is a message and the verdict of the milestone that
// referenced it.
type ReferencedMessage struct {
	ID             MessageID
	Raw            []byte // EncodeMessage output; ID is its hash
	Message        *Message
	WhiteFlagIndex uint32
	InclusionState InclusionState
	ConflictReason ConflictReason
}

// LedgerOutput is an output as created in the ledger.
type LedgerOutput struct {
	OutputID       OutputID
	MessageID      MessageID // the message whose transaction created it (zero for genesis)
	Output         Output
	MilestoneIndex uint32
	Timestamp      time.Time
}

// LedgerSpent is an output together with the transaction that spent it.
type LedgerSpent struct {
	LedgerOutput
	SpentBy             TransactionID
	SpentMilestoneIndex uint32
	SpentTimestamp      time.Time
}

// UnreferencedMessage is a message seen by the node but not yet referenced
// by a milestone.
type UnreferencedMessage struct {
	ID                MessageID
	Raw               []byte
	Message           *Message
	SeenAt            time.Time
	EstMilestoneIndex uint32
}
