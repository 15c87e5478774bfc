package chain

// InclusionState is how the white-flag walk judged a referenced message.
// The values are what the database stores (tinyint).
type InclusionState uint8

// Inclusion states.
const (
	NoTransaction InclusionState = 0
	Conflicting   InclusionState = 1
	Included      InclusionState = 2
)

var inclusionStateNames = map[InclusionState]string{
	NoTransaction: "noTransaction",
	Conflicting:   "conflicting",
	Included:      "included",
}

func (s InclusionState) String() string { return enumName(s, inclusionStateNames, "inclusionState") }

// ConflictReason says why a transaction was not applied (TIP-29 codes).
type ConflictReason uint8

// Conflict reasons.
const (
	ConflictNone                     ConflictReason = 0
	ConflictInputAlreadySpent        ConflictReason = 1
	ConflictInputSpentInMilestone    ConflictReason = 2
	ConflictInputNotFound            ConflictReason = 3
	ConflictSumMismatch              ConflictReason = 4
	ConflictInvalidSignature         ConflictReason = 5
	ConflictTimelockNotExpired       ConflictReason = 6
	ConflictInvalidNativeTokens      ConflictReason = 7
	ConflictReturnAmountNotFulfilled ConflictReason = 8
	ConflictInvalidInputUnlock       ConflictReason = 9
	ConflictInvalidInputsCommitment  ConflictReason = 10
	ConflictInvalidSender            ConflictReason = 11
	ConflictInvalidChainTransition   ConflictReason = 12
	ConflictSemanticValidationFailed ConflictReason = 255
)

var conflictNames = map[ConflictReason]string{
	ConflictNone:                     "none",
	ConflictInputAlreadySpent:        "inputUTXOAlreadySpent",
	ConflictInputSpentInMilestone:    "inputUTXOAlreadySpentInThisMilestone",
	ConflictInputNotFound:            "inputUTXONotFound",
	ConflictSumMismatch:              "inputOutputSumMismatch",
	ConflictInvalidSignature:         "invalidSignature",
	ConflictTimelockNotExpired:       "timelockNotExpired",
	ConflictInvalidNativeTokens:      "invalidNativeTokens",
	ConflictReturnAmountNotFulfilled: "returnAmountNotFulfilled",
	ConflictInvalidInputUnlock:       "invalidInputUnlock",
	ConflictInvalidInputsCommitment:  "invalidInputsCommitment",
	ConflictInvalidSender:            "invalidSender",
	ConflictInvalidChainTransition:   "invalidChainStateTransition",
	ConflictSemanticValidationFailed: "semanticValidationFailed",
}

func (r ConflictReason) String() string { return enumName(r, conflictNames, "conflictReason") }

// Known reports whether r is one of the TIP-29 codes.
func (r ConflictReason) Known() bool {
	_, ok := conflictNames[r]
	return ok
}
