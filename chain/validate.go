package chain

import (
	"bytes"
	"fmt"
)

// ValidateMessage checks a serialized message before it is stored: the size cap,
// strict decoding, and (when m is given) that m is what raw says.
func ValidateMessage(m *Message, raw []byte) error {
	if _, err := DecodeMessage(raw); err != nil {
		return err
	}
	if m != nil && !bytes.Equal(EncodeMessage(m), raw) {
		return invalid("message", "decoded form does not match its raw bytes")
	}
	return nil
}

// Validate runs the structural checks of a confirmed milestone: its payload matches its
// header, every message is well formed and hashes to its ID, the messages are the
// milestone's cone in white-flag order (proved by both Merkle roots), and the ledger
// changes are exactly what the included transactions did. The first problem found is a
// *ValidationError whose Field is a path such as "messages[3].payload.inputs[0]".
func Validate(cm *ConfirmedMilestone) error {
	_, err := validate(cm)
	return err
}

// validate is Validate, returning the decoded messages in white-flag order.
func validate(cm *ConfirmedMilestone) ([]*Message, error) {
	if err := validateHeader(cm); err != nil {
		return nil, err
	}
	msgs, err := validateMessages(cm)
	if err != nil {
		return nil, err
	}
	if err := validateCone(cm, msgs); err != nil {
		return nil, err
	}
	return msgs, validateLedger(cm, msgs)
}

func validateHeader(cm *ConfirmedMilestone) error {
	mp := cm.Milestone
	switch {
	case cm.Index == 0:
		return invalid("index", "must be positive")
	case cm.Timestamp.IsZero():
		return invalid("timestamp", "missing")
	case cm.Timestamp.Nanosecond() != 0:
		return invalid("timestamp", "%s has sub-second precision", cm.Timestamp)
	case mp == nil:
		return invalid("milestone", "missing")
	case mp.Index != cm.Index:
		return invalid("index", "%d, but the milestone payload says %d", cm.Index, mp.Index)
	case int64(mp.Timestamp) != cm.Timestamp.Unix():
		return invalid("timestamp", "%d, but the milestone payload says %d", cm.Timestamp.Unix(), mp.Timestamp)
	case mp.PreviousMilestoneID != cm.PreviousMilestoneID:
		return invalid("previousMilestoneId", "%s, but the milestone payload says %s",
			cm.PreviousMilestoneID, mp.PreviousMilestoneID)
	case mp.ID() != cm.MilestoneID:
		return &ValidationError{Field: "milestoneId", Err: ErrMalformedID,
			Reason: fmt.Sprintf("%s does not match the milestone payload (%s)", cm.MilestoneID, mp.ID())}
	}
	return nil
}

// validateMessages checks each referenced message on its own and returns the decoded
// messages in white-flag order.
func validateMessages(cm *ConfirmedMilestone) ([]*Message, error) {
	msgs := make([]*Message, len(cm.Messages))
	seen := make(map[MessageID]int, len(cm.Messages))
	for i := range cm.Messages {
		rm := &cm.Messages[i]
		path := indexed("messages", i)
		if j, dup := seen[rm.ID]; dup {
			return nil, invalid(joinField(path, "id"), "duplicate of messages[%d]", j)
		}
		seen[rm.ID] = i
		m, err := validateReferenced(rm, i)
		if err != nil {
			return nil, underField(path, err)
		}
		msgs[i] = m
	}
	return msgs, nil
}

func validateReferenced(rm *ReferencedMessage, i int) (*Message, error) {
	if rm.WhiteFlagIndex != uint32(i) {
		return nil, invalid("whiteFlagIndex", "is %d, want %d (indexes run 0..n-1)", rm.WhiteFlagIndex, i)
	}
	if err := ValidateMessage(rm.Message, rm.Raw); err != nil {
		return nil, err
	}
	if got := MessageIDOf(rm.Raw); got != rm.ID {
		return nil, &ValidationError{Field: "id", Err: ErrMalformedID,
			Reason: fmt.Sprintf("%s does not match BLAKE2b-256 of the raw bytes (%s)", rm.ID, got)}
	}
	m := rm.Message
	if m == nil {
		m, _ = DecodeMessage(rm.Raw) // cannot fail: ValidateMessage decoded it
	}
	return m, validateVerdict(rm, m)
}

// validateVerdict checks that inclusion state and conflict reason fit the payload: only
// transactions are included or conflicting, and only conflicting ones carry a reason.
func validateVerdict(rm *ReferencedMessage, m *Message) error {
	isTx := m.TransactionOf() != nil
	switch rm.InclusionState {
	case NoTransaction:
		if isTx {
			return invalid("inclusionState", "noTransaction for a transaction message")
		}
	case Included, Conflicting:
		if !isTx {
			return invalid("inclusionState", "%s for a message without transaction", rm.InclusionState)
		}
	default:
		return invalid("inclusionState", "unknown state %d", uint8(rm.InclusionState))
	}
	conflicting := rm.InclusionState == Conflicting
	switch {
	case !rm.ConflictReason.Known():
		return invalid("conflictReason", "unknown reason %d", uint8(rm.ConflictReason))
	case conflicting && rm.ConflictReason == ConflictNone:
		return invalid("conflictReason", "conflicting without a reason")
	case !conflicting && rm.ConflictReason != ConflictNone:
		return invalid("conflictReason", "reason %s given but state is %s", rm.ConflictReason, rm.InclusionState)
	}
	return nil
}

// checkNetworkID refuses transactions made for another network.
func checkNetworkID(msgs []*Message, want uint64) error {
	for i, m := range msgs {
		tx := m.TransactionOf()
		if tx != nil && tx.NetworkID != want {
			return invalid(joinField(indexed("messages", i), "payload.essence.networkId"),
				"%d is not this network's ID %d", tx.NetworkID, want)
		}
	}
	return nil
}
