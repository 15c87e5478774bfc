package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/gocql/gocql"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"golang.org/x/sync/errgroup"
)

// The milestones table (a milestone by index, by ID) and messages_by_milestone (the
// messages a milestone referenced, in white-flag order, and those its transactions
// applied).

// MilestoneRecord is a milestones row. MessageID is empty until the next milestone,
// which references the message carrying this one, is indexed. MilestoneID is empty in a
// row that is not indexed: message_id alone is written by the next milestone, and may
// come first.
type MilestoneRecord struct {
	Index       uint32 `cql:"milestone_index"`
	MessageID   string `cql:"message_id"`
	MilestoneID string `cql:"milestone_id"`
	Timestamp   int64  `cql:"timestamp"` // unix seconds
	Payload     []byte `cql:"payload"`   // the signed milestone payload as the network serialized it
}

// Milestone reads one milestone by index; ErrNotFound if it is not indexed (a row that
// holds only the message ID, written by the next milestone first, is not indexed yet).
func (st *Store) Milestone(ctx context.Context, index uint32) (MilestoneRecord, error) {
	m := MilestoneRecord{Index: index}
	err := cql.GetRecord(ctx, st.s, cql.MilestoneByIndex, []any{int32(index)}, &m)
	if err == nil && m.MilestoneID == "" {
		err = gocql.ErrNotFound
	}
	return m, notFound(err)
}

// MilestoneMessages lists the IDs of the messages a milestone referenced, in white-flag
// order.
func (st *Store) MilestoneMessages(ctx context.Context, index uint32) ([]string, error) {
	rows, err := st.MilestoneListing(ctx, index)
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.MessageID
	}
	return ids, err
}

// MilestoneIndexByID finds a milestone's index by its ID (ErrNotFound when unknown).
func (st *Store) MilestoneIndexByID(ctx context.Context, milestoneID string) (uint32, error) {
	var index int32
	err := st.s.Scan(ctx, cql.MilestoneIndexByID, []any{milestoneID}, &index)
	if errors.Is(err, gocql.ErrNotFound) {
		return 0, ErrNotFound
	}
	return uint32(index), err
}

// MilestoneMessage is a message a milestone referenced, at its white-flag position.
type MilestoneMessage struct {
	WhiteFlagIndex int32  `cql:"white_flag_index"`
	MessageID      string `cql:"message_id"`
}

// MilestoneMessagesPage reads one page of a milestone's messages in white-flag order,
// or in reverse with newest.
func (st *Store) MilestoneMessagesPage(ctx context.Context, index uint32, newest bool, req PageRequest) (
	[]MilestoneMessage, []byte, error) {
	stmt := cql.MessagesByMilestone
	if newest {
		stmt = cql.MessagesByMilestoneDesc
	}
	return readRows[MilestoneMessage](ctx, st, stmt, []any{int32(index)}, req)
}

// MilestoneListing reads a milestone's messages_by_milestone partition with its
// white-flag indexes, in white-flag order.
func (st *Store) MilestoneListing(ctx context.Context, index uint32) ([]MilestoneMessage, error) {
	return cql.Records[MilestoneMessage](ctx, st.s, cql.MessagesByMilestone, []any{int32(index)})
}

// AppliedMessages lists the IDs of the messages whose transactions milestone index
// included (the leaves of its applied Merkle tree), in white-flag order.
func (st *Store) AppliedMessages(ctx context.Context, index uint32) ([]string, error) {
	ids, err := st.MilestoneMessages(ctx, index)
	if err != nil {
		return nil, err
	}
	included := make([]bool, len(ids))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(archiveReads)
	for i, id := range ids {
		g.Go(func() error {
			m, err := st.MessageMetadata(gctx, id)
			if err != nil {
				return fmt.Errorf("message %s of milestone %d: %w", id, index, err)
			}
			included[i] = m.InclusionState != nil && chain.InclusionState(*m.InclusionState) == chain.Included
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	var out []string
	for i, id := range ids {
		if included[i] {
			out = append(out, id)
		}
	}
	return out, nil
}
