package tables

import (
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// StateJSON is where a row stands in the ledger: referenced by which milestone and
// judged how, or (unreferenced) the milestone expected to reference it.
type StateJSON struct {
	Referenced           bool   `json:"referenced"`
	MilestoneIndex       *int32 `json:"milestoneIndex,omitempty"`
	LedgerInclusionState string `json:"ledgerInclusionState,omitempty"` // noTransaction, conflicting, included
	EstMilestoneIndex    *int32 `json:"estimatedMilestoneIndex,omitempty"`
}

// newState describes a row from its milestone index (nil: not referenced) and
// inclusion state (nil: not judged yet).
func newState(milestone *int32, inclusion *int8, est *int32) StateJSON {
	s := StateJSON{Referenced: milestone != nil, MilestoneIndex: milestone}
	if inclusion != nil {
		s.LedgerInclusionState = chain.InclusionState(*inclusion).String()
	}
	if milestone == nil {
		s.EstMilestoneIndex = est
	}
	return s
}

// partitionState describes a row of a partitioned table: in the pending partition its
// milestone index is the estimated one.
func partitionState(rng int32, milestone int32, inclusion *int8) StateJSON {
	if rng == store.PendingRange {
		return newState(nil, nil, &milestone)
	}
	return newState(&milestone, inclusion, nil)
}

// txRowState describes a transactions row.
func txRowState(r *store.TxRow) StateJSON { return newState(r.MilestoneIndex, r.InclusionState, nil) }
