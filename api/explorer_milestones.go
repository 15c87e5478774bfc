package api

import (
	"context"
	"strconv"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// payloadTypes are the payload type numbers (TIP-24) of the message variants stored:
// what Chronicle's payloadType says. A message without a payload has none (null).
var payloadTypes = map[string]uint32{"tagged_data": 5, "transaction": 6, "milestone": 7}

// milestoneBlocksJSON is a page of a milestone's messages (Chronicle's
// BlocksByMilestoneResponse: messages are the blocks of Stardust's later releases).
type milestoneBlocksJSON struct {
	MilestoneIndex uint32      `json:"milestoneIndex"`
	Blocks         []blockJSON `json:"blocks"`
	Cursor         string      `json:"cursor,omitempty"`
	MaxResults     int         `json:"maxResults"` // the page size in effect
}

// listedMilestone: the answer lists the blocks of one milestone.
func (a milestoneBlocksJSON) listedMilestone() uint32 { return a.MilestoneIndex }

type blockJSON struct {
	BlockID        string  `json:"blockId"`
	PayloadType    *uint32 `json:"payloadType"` // null: no payload
	WhiteFlagIndex int32   `json:"whiteFlagIndex"`
}

// pagedMilestone reads the paging of a milestone's list (explorerPaging) and finds the
// route's indexed milestone.
func (s *Server) pagedMilestone(ctx context.Context, in *input, list string) (uint32, error) {
	if err := explorerPaging(in, list); err != nil {
		return 0, err
	}
	return s.routeMilestone(ctx, in)
}

// routeMilestone is the route's indexed milestone: the index path parameter, or the
// milestone ID's (milestones_by_id, one read); 404 when it is not indexed.
func (s *Server) routeMilestone(ctx context.Context, in *input) (uint32, error) {
	index := in.index("index")
	if !in.has("index") {
		var err error
		if index, err = s.milestoneIndexOf(ctx, in.text("milestoneId")); err != nil {
			return 0, err
		}
	}
	_, err := s.indexedMilestone(ctx, index)
	return index, err
}

// milestoneBlocks pages a milestone's messages in reverse white-flag order (sort=oldest:
// in white-flag order), from its messages_by_milestone partition, with each page's payload types
// from the messages table: one partition read and one read per message of the page.
func (s *Server) milestoneBlocks(ctx context.Context, in *input) (any, error) {
	index, err := s.pagedMilestone(ctx, in, "milestone-blocks")
	if err != nil {
		return nil, err
	}
	newest := !in.oldest()
	fetch := func(ctx context.Context, _ int32, req store.PageRequest) ([]store.MilestoneMessage, []byte, error) {
		return s.st.MilestoneMessagesPage(ctx, index, newest, req)
	}
	p, err := walk(ctx, in, onePartition, fetch, nil, func(m *store.MilestoneMessage) blockJSON {
		return blockJSON{BlockID: m.MessageID, WhiteFlagIndex: m.WhiteFlagIndex}
	})
	if err != nil {
		return nil, err
	}
	if err := s.payloadTypes(ctx, p.Items); err != nil {
		return nil, err
	}
	return milestoneBlocksJSON{MilestoneIndex: index, Blocks: p.Items, Cursor: p.Cursor, MaxResults: in.pageSize}, nil
}

// payloadTypes reads each block's variant from the messages table, in parallel.
func (s *Server) payloadTypes(ctx context.Context, blocks []blockJSON) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(maxParallelReads)
	for i := range blocks {
		g.Go(func() error {
			m, err := s.st.MessageMetadata(ctx, blocks[i].BlockID)
			if err != nil {
				return err
			}
			if t, ok := payloadTypes[m.Variant]; ok {
				blocks[i].PayloadType = &t
			}
			return nil
		})
	}
	return g.Wait()
}

// milestoneUpdatesJSON is a page of a milestone's ledger updates (Chronicle's
// LedgerUpdatesByMilestoneResponse, with the output's kind and amount).
type milestoneUpdatesJSON struct {
	MilestoneIndex uint32                `json:"milestoneIndex"`
	Items          []milestoneUpdateJSON `json:"items"`
	Cursor         string                `json:"cursor,omitempty"`
	MaxResults     int                   `json:"maxResults"` // the page size in effect
}

// listedMilestone: the answer lists the ledger updates of one milestone.
func (a milestoneUpdatesJSON) listedMilestone() uint32 { return a.MilestoneIndex }

type milestoneUpdateJSON struct {
	Address  string `json:"address"` // the output's owner
	OutputID string `json:"outputId"`
	IsSpent  bool   `json:"isSpent"`
	Kind     string `json:"kind"`
	Amount   string `json:"amount"`
}

// milestoneUpdates pages the outputs a milestone created (first) and consumed, each
// group by output ID: one partition of milestone_ledger_updates.
func (s *Server) milestoneUpdates(ctx context.Context, in *input) (any, error) {
	index, err := s.pagedMilestone(ctx, in, "milestone-ledger-updates")
	if err != nil {
		return nil, err
	}
	fetch := func(ctx context.Context, _ int32, req store.PageRequest) ([]store.MilestoneUpdate, []byte, error) {
		return s.st.MilestoneUpdatesPage(ctx, index, req)
	}
	p, err := walk(ctx, in, onePartition, fetch, nil, func(u *store.MilestoneUpdate) milestoneUpdateJSON {
		return milestoneUpdateJSON{Address: u.Address, OutputID: u.OutputID, IsSpent: u.IsSpent, Kind: u.Kind,
			Amount: strconv.FormatInt(u.Amount, 10)}
	})
	if err != nil {
		return nil, err
	}
	return milestoneUpdatesJSON{MilestoneIndex: index, Items: p.Items, Cursor: p.Cursor, MaxResults: in.pageSize}, nil
}
