package chain

import "time"

// ConfirmedMilestone is everything one milestone confirmed: its payload, the messages of
// its cone in white-flag order, and the ledger changes. The message carrying the payload
// is not among them: its parents are the milestone's, so it sits in the next
// milestone's cone.
type ConfirmedMilestone struct {
	Index               uint32
	Timestamp           time.Time // UTC, second precision
	MilestoneID         MilestoneID
	PreviousMilestoneID MilestoneID
	Milestone           *MilestonePayload
	Messages            []ReferencedMessage
	Created             []LedgerOutput
	Consumed            []LedgerSpent
}

// CarriedMilestones returns the milestones whose carrying messages this milestone
// referenced (normally its predecessor's), keyed by milestone index.
func (cm *ConfirmedMilestone) CarriedMilestones() map[uint32]MessageID {
	out := make(map[uint32]MessageID)
	for i := range cm.Messages {
		rm := &cm.Messages[i]
		if rm.Message == nil {
			continue
		}
		if mp := rm.Message.MilestoneOf(); mp != nil {
			out[mp.Index] = rm.ID
		}
	}
	return out
}

// ReferencedMessage is a message and the verdict of the milestone that referenced it.
type ReferencedMessage struct {
	ID             MessageID
	Raw            []byte // the bytes as the network serialized them; ID is their hash
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

// UnreferencedMessage is a message seen by the node but not yet referenced by a
// milestone.
type UnreferencedMessage struct {
	ID                MessageID
	Raw               []byte
	Message           *Message
	SeenAt            time.Time
	EstMilestoneIndex uint32
}

// SpentInput is an output an included transaction of a milestone consumed, and the
// transaction that consumed it.
type SpentInput struct {
	OutputID OutputID
	SpentBy  TransactionID
}

// LedgerChanges derives what the milestone's included transactions did to the ledger:
// the outputs they created (booked in this milestone) and the inputs they consumed, in
// white-flag order. Resolving a consumed input to the output it names is the caller's
// (a node, the tables, an archive).
func (cm *ConfirmedMilestone) LedgerChanges() (created []LedgerOutput, consumed []SpentInput) {
	for i := range cm.Messages {
		rm := &cm.Messages[i]
		tx := rm.Message.TransactionOf()
		if rm.InclusionState != Included || tx == nil {
			continue
		}
		txID := tx.ID()
		for j := range tx.Outputs {
			created = append(created, LedgerOutput{OutputID: NewOutputID(txID, uint16(j)), MessageID: rm.ID,
				Output: tx.Outputs[j], MilestoneIndex: cm.Index, Timestamp: cm.Timestamp})
		}
		for _, in := range tx.Inputs {
			consumed = append(consumed, SpentInput{in.OutputID(), txID})
		}
	}
	return created, consumed
}
