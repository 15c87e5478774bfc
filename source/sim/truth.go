package sim

import (
	"context"
	"fmt"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Truth is everything the sim generated up to a milestone, for checking a
// database against. Spent information is as of UpTo.
type Truth struct {
	UpTo         uint32
	Milestones   []MilestoneTruth // in index order
	Messages     map[chain.MessageID]*MessageTruth
	Transactions map[chain.TransactionID]*TransactionTruth
	Outputs      map[chain.OutputID]*OutputTruth
	// Tags maps a message tag (tagged data, or the tagged data inside a
	// transaction) to the messages carrying it, in confirmation order.
	Tags map[string][]chain.MessageID
	// Children maps a parent to the messages approving it, in
	// confirmation order. The all-zero ID stands for the genesis.
	Children map[chain.MessageID][]chain.MessageID
}

// MilestoneTruth describes one milestone.
type MilestoneTruth struct {
	Index               uint32
	Timestamp           time.Time
	MilestoneID         chain.MilestoneID
	PreviousMilestoneID chain.MilestoneID
	Payload             []byte            // the signed milestone payload as serialized
	MessageID           chain.MessageID   // the message carrying it, referenced by the next milestone
	Messages            []chain.MessageID // the cone, white-flag order
}

// MessageTruth is a referenced message and its verdict.
type MessageTruth struct {
	ID             chain.MessageID
	Raw            []byte
	Message        *chain.Message
	Milestone      uint32
	Timestamp      time.Time // of the referencing milestone
	WhiteFlagIndex uint32
	InclusionState chain.InclusionState
	ConflictReason chain.ConflictReason
}

// TransactionTruth is a transaction and every message that carried it.
type TransactionTruth struct {
	ID          chain.TransactionID
	Transaction *chain.Transaction
	Attachments []chain.MessageID // confirmation order
	// Included is the attachment the ledger applied; zero with Milestone 0
	// if none was.
	Included  chain.MessageID
	Milestone uint32
}

// OutputTruth is an output with its creation and (if spent by UpTo) spend.
type OutputTruth struct {
	chain.LedgerOutput
	Spent          bool
	SpentBy        chain.TransactionID
	SpentMilestone uint32
	SpentTimestamp time.Time
}

// Truth returns what was generated for milestones FirstIndex..upTo,
// generating them if needed. upTo is capped at the tip.
func (s *Sim) Truth(upTo uint32) (*Truth, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.opts.Retain > 0 {
		return nil, fmt.Errorf("sim: Truth needs every milestone kept (Options.Retain is %d)", s.opts.Retain)
	}
	upTo = min(upTo, s.last())
	t := &Truth{
		UpTo:         upTo,
		Messages:     make(map[chain.MessageID]*MessageTruth),
		Transactions: make(map[chain.TransactionID]*TransactionTruth),
		Outputs:      make(map[chain.OutputID]*OutputTruth),
		Tags:         make(map[string][]chain.MessageID),
		Children:     make(map[chain.MessageID][]chain.MessageID),
	}
	if upTo < s.opts.FirstIndex {
		return t, nil
	}
	// Generate everything first: spends recorded on an output happen in
	// later milestones than its creation.
	if _, err := s.record(context.Background(), upTo); err != nil {
		return nil, err
	}
	for index := s.opts.FirstIndex; index <= upTo && index >= s.opts.FirstIndex; index++ {
		if err := s.addTruth(t, index); err != nil {
			return nil, err
		}
	}
	return t, nil
}
