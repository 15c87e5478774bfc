package tip25

import (
	"strconv"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Ledger inclusion states of a referenced block (TIP-25 spelling).
const (
	LedgerIncluded      = "included"
	LedgerConflicting   = "conflicting"
	LedgerNoTransaction = "noTransaction"
)

// BlockMetadataJSON is the answer of /blocks/{id}/metadata, shaped as Hornet's: the
// optional parts are pointers or omitempty so that a referenced block carries no
// shouldPromote/shouldReattach and a non-conflicting one no conflictReason.
type BlockMetadataJSON struct {
	BlockID                    string   `json:"blockId"`
	Parents                    []string `json:"parents"`
	IsSolid                    bool     `json:"isSolid"`
	ReferencedByMilestoneIndex uint32   `json:"referencedByMilestoneIndex,omitempty"`
	MilestoneIndex             uint32   `json:"milestoneIndex,omitempty"`
	LedgerInclusionState       string   `json:"ledgerInclusionState,omitempty"`
	ConflictReason             *uint8   `json:"conflictReason,omitempty"`
	WhiteFlagIndex             *uint32  `json:"whiteFlagIndex,omitempty"`
	ShouldPromote              *bool    `json:"shouldPromote,omitempty"`
	ShouldReattach             *bool    `json:"shouldReattach,omitempty"`
}

// Referenced says how a milestone referenced a block: the milestone's index, the block's
// white-flag position, its inclusion state and conflict reason (TIP-25 code, 0 = none),
// and, for a block carrying a milestone, the index it carries (0 otherwise).
type Referenced struct {
	MilestoneIndex   uint32
	WhiteFlagIndex   uint32
	State            string
	ConflictReason   uint8
	CarriedMilestone uint32
}

// BlockMetadata returns the metadata of a block a milestone referenced (the only blocks an
// indexer of confirmed data holds): solid, with its white-flag index.
func BlockMetadata(id chain.MessageID, parents []chain.MessageID, ref Referenced) *BlockMetadataJSON {
	j := &BlockMetadataJSON{BlockID: id.String(), Parents: ids(parents), IsSolid: true,
		ReferencedByMilestoneIndex: ref.MilestoneIndex, MilestoneIndex: ref.CarriedMilestone,
		LedgerInclusionState: ref.State, WhiteFlagIndex: ptr(ref.WhiteFlagIndex)}
	if ref.ConflictReason != 0 {
		j.ConflictReason = ptr(ref.ConflictReason)
	}
	return j
}

// OutputMetadataJSON is the answer of /outputs/{id}/metadata; the spent fields are
// omitted while the output is unspent, as Hornet does.
type OutputMetadataJSON struct {
	BlockID                  string `json:"blockId"`
	TransactionID            string `json:"transactionId"`
	OutputIndex              uint16 `json:"outputIndex"`
	IsSpent                  bool   `json:"isSpent"`
	MilestoneIndexSpent      uint32 `json:"milestoneIndexSpent,omitempty"`
	MilestoneTimestampSpent  uint32 `json:"milestoneTimestampSpent,omitempty"`
	TransactionIDSpent       string `json:"transactionIdSpent,omitempty"`
	MilestoneIndexBooked     uint32 `json:"milestoneIndexBooked"`
	MilestoneTimestampBooked uint32 `json:"milestoneTimestampBooked"`
	LedgerIndex              uint32 `json:"ledgerIndex"`
}

// Booked is the milestone that created an output.
type Booked struct{ MilestoneIndex, MilestoneTimestamp uint32 }

// Spent is the transaction and milestone that consumed an output.
type Spent struct {
	TransactionID                      chain.TransactionID
	MilestoneIndex, MilestoneTimestamp uint32
}

// OutputMetadata returns an output's metadata; spent is nil for an unspent output and
// ledgerIndex is the confirmed milestone the answer reflects.
func OutputMetadata(id chain.OutputID, block chain.MessageID, booked Booked, spent *Spent, ledgerIndex uint32) *OutputMetadataJSON {
	j := &OutputMetadataJSON{BlockID: block.String(), TransactionID: id.TransactionID().String(),
		OutputIndex: id.Index(), MilestoneIndexBooked: booked.MilestoneIndex,
		MilestoneTimestampBooked: booked.MilestoneTimestamp, LedgerIndex: ledgerIndex}
	if spent != nil {
		j.IsSpent, j.TransactionIDSpent = true, spent.TransactionID.String()
		j.MilestoneIndexSpent, j.MilestoneTimestampSpent = spent.MilestoneIndex, spent.MilestoneTimestamp
	}
	return j
}

// OutputResponseJSON is the answer of /outputs/{id}.
type OutputResponseJSON struct {
	Metadata *OutputMetadataJSON `json:"metadata"`
	Output   *OutputJSON         `json:"output"`
}

// OutputResponse pairs an output with its metadata; a legacy output gives ErrLegacyOutput.
func OutputResponse(o chain.Output, meta *OutputMetadataJSON) (*OutputResponseJSON, error) {
	oj, err := Output(o)
	if err != nil {
		return nil, err
	}
	return &OutputResponseJSON{Metadata: meta, Output: oj}, nil
}

// UTXOChangesJSON is the answer of /milestones/{id}/utxo-changes (and by-index).
type UTXOChangesJSON struct {
	Index           uint32   `json:"index"`
	CreatedOutputs  []string `json:"createdOutputs"`
	ConsumedOutputs []string `json:"consumedOutputs"`
}

// UTXOChanges lists a milestone's created and consumed output IDs (empty lists, not null).
func UTXOChanges(index uint32, created, consumed []chain.OutputID) *UTXOChangesJSON {
	return &UTXOChangesJSON{Index: index, CreatedOutputs: outputIDs(created), ConsumedOutputs: outputIDs(consumed)}
}

func outputIDs(in []chain.OutputID) []string {
	out := make([]string, len(in))
	for i, id := range in {
		out[i] = id.String()
	}
	return out
}

// ErrorJSON is a node's error body: {"error":{"code","message"}}; code is a string
// (iota.js IResponse), Hornet puts the HTTP status there.
type ErrorJSON struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail is the inside of ErrorJSON.
type ErrorDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Error returns the error body for an HTTP status and message.
func Error(status int, message string) *ErrorJSON {
	return &ErrorJSON{Error: ErrorDetail{Code: strconv.Itoa(status), Message: message}}
}
