package explorer

import (
	"context"
	"strconv"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// payloadTypes are the payload type numbers (TIP-24) of the message variants stored:
// what Chronicle's payloadType says. A message without a payload has none (null).
var payloadTypes = map[string]uint32{"tagged_data": 5, "transaction": 6, "milestone": 7}

// MilestoneBlocksJSON is a page of a milestone's messages (Chronicle's
// BlocksByMilestoneResponse: messages are the blocks of Stardust's later releases).
type MilestoneBlocksJSON struct {
	MilestoneIndex uint32      `json:"milestoneIndex"`
	Blocks         []BlockJSON `json:"blocks"`
	Cursor         string      `json:"cursor,omitempty"`
	MaxResults     int         `json:"maxResults"` // the page size in effect
}

// ListedMilestone: the answer lists the blocks of one milestone.
func (a MilestoneBlocksJSON) ListedMilestone() uint32 { return a.MilestoneIndex }

type BlockJSON struct {
	BlockID        string  `json:"blockId"`
	PayloadType    *uint32 `json:"payloadType"` // null: no payload
	WhiteFlagIndex int32   `json:"whiteFlagIndex"`
}

// The parameters of a milestone's lists: the milestone, by index or ID, and the page
// (and, of its blocks, their order).
type (
	milestoneBlocksParams struct {
		Oldest *bool `query:"sort" kind:"sort" doc:"newest (default): reverse white-flag order; oldest: white-flag order"`
		explorerPageParams
	}
	blocksByIndexParams struct {
		rest.MilestoneIndexParams
		milestoneBlocksParams
	}
	blocksByIDParams struct {
		rest.MilestoneIDParams
		milestoneBlocksParams
	}
	updatesByIndexParams struct {
		rest.MilestoneIndexParams
		explorerPageParams
	}
	updatesByIDParams struct {
		rest.MilestoneIDParams
		explorerPageParams
	}
)

// milestoneRef names a milestone by its index, or (index nil) by its ID.
type milestoneRef struct {
	index *uint32
	id    string
}

// pagedMilestone reads the paging of a milestone's list (explorerPaging) and finds the
// route's indexed milestone.
func (s *API) pagedMilestone(ctx context.Context, in *rest.Input, list string, ref milestoneRef,
	page *explorerPageParams) (uint32, error) {
	if err := explorerPaging(in, list, page); err != nil {
		return 0, err
	}
	return s.routeMilestone(ctx, ref)
}

// routeMilestone is the route's indexed milestone: the index path parameter, or the
// milestone ID's (milestones_by_id, one read); 404 when it is not indexed.
func (s *API) routeMilestone(ctx context.Context, ref milestoneRef) (uint32, error) {
	var index uint32
	if ref.index != nil {
		index = *ref.index
	} else {
		var err error
		if index, err = s.MilestoneIndexOf(ctx, ref.id); err != nil {
			return 0, err
		}
	}
	_, err := s.IndexedMilestone(ctx, index)
	return index, err
}

func (s *API) milestoneBlocksByIndex(ctx context.Context, in *rest.Input, p *blocksByIndexParams) (any, error) {
	return s.milestoneBlocks(ctx, in, milestoneRef{index: &p.Index}, &p.milestoneBlocksParams)
}

func (s *API) milestoneBlocksByID(ctx context.Context, in *rest.Input, p *blocksByIDParams) (any, error) {
	return s.milestoneBlocks(ctx, in, milestoneRef{id: p.MilestoneID}, &p.milestoneBlocksParams)
}

func (s *API) milestoneUpdatesByIndex(ctx context.Context, in *rest.Input, p *updatesByIndexParams) (any, error) {
	return s.milestoneUpdates(ctx, in, milestoneRef{index: &p.Index}, &p.explorerPageParams)
}

func (s *API) milestoneUpdatesByID(ctx context.Context, in *rest.Input, p *updatesByIDParams) (any, error) {
	return s.milestoneUpdates(ctx, in, milestoneRef{id: p.MilestoneID}, &p.explorerPageParams)
}

// milestoneBlocks pages a milestone's messages in reverse white-flag order (sort=oldest:
// in white-flag order), from its messages_by_milestone partition, with each page's payload types
// from the messages table: one partition read and one read per message of the page.
func (s *API) milestoneBlocks(ctx context.Context, in *rest.Input, ref milestoneRef, q *milestoneBlocksParams) (any, error) {
	index, err := s.pagedMilestone(ctx, in, "milestone-blocks", ref, &q.explorerPageParams)
	if err != nil {
		return nil, err
	}
	newest := q.Oldest == nil || !*q.Oldest
	fetch := func(ctx context.Context, _ int32, req store.PageRequest) ([]store.MilestoneMessage, []byte, error) {
		return s.st.MilestoneMessagesPage(ctx, index, newest, req)
	}
	p, err := rest.Walk(ctx, in, rest.OnePartition, fetch, nil, func(m *store.MilestoneMessage) BlockJSON {
		return BlockJSON{BlockID: m.MessageID, WhiteFlagIndex: m.WhiteFlagIndex}
	})
	if err != nil {
		return nil, err
	}
	if err := s.payloadTypes(ctx, p.Items); err != nil {
		return nil, err
	}
	return MilestoneBlocksJSON{MilestoneIndex: index, Blocks: p.Items, Cursor: p.Cursor, MaxResults: in.PageSize}, nil
}

// payloadTypes reads each block's variant from the messages table, in parallel.
func (s *API) payloadTypes(ctx context.Context, blocks []BlockJSON) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(rest.MaxParallelReads)
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

// MilestoneUpdatesJSON is a page of a milestone's ledger updates (Chronicle's
// LedgerUpdatesByMilestoneResponse, with the output's kind and amount).
type MilestoneUpdatesJSON struct {
	MilestoneIndex uint32                `json:"milestoneIndex"`
	Items          []milestoneUpdateJSON `json:"items"`
	Cursor         string                `json:"cursor,omitempty"`
	MaxResults     int                   `json:"maxResults"` // the page size in effect
}

// ListedMilestone: the answer lists the ledger updates of one milestone.
func (a MilestoneUpdatesJSON) ListedMilestone() uint32 { return a.MilestoneIndex }

type milestoneUpdateJSON struct {
	Address  string `json:"address"` // the output's owner
	OutputID string `json:"outputId"`
	IsSpent  bool   `json:"isSpent"`
	Kind     string `json:"kind"`
	Amount   string `json:"amount"`
}

// milestoneUpdates pages the outputs a milestone created (first) and consumed, each
// group by output ID: one partition of milestone_ledger_updates.
func (s *API) milestoneUpdates(ctx context.Context, in *rest.Input, ref milestoneRef, page *explorerPageParams) (any, error) {
	index, err := s.pagedMilestone(ctx, in, "milestone-ledger-updates", ref, page)
	if err != nil {
		return nil, err
	}
	fetch := func(ctx context.Context, _ int32, req store.PageRequest) ([]store.MilestoneUpdate, []byte, error) {
		return s.st.MilestoneUpdatesPage(ctx, index, req)
	}
	p, err := rest.Walk(ctx, in, rest.OnePartition, fetch, nil, func(u *store.MilestoneUpdate) milestoneUpdateJSON {
		return milestoneUpdateJSON{Address: u.Address, OutputID: u.OutputID, IsSpent: u.IsSpent, Kind: u.Kind,
			Amount: strconv.FormatInt(u.Amount, 10)}
	})
	if err != nil {
		return nil, err
	}
	return MilestoneUpdatesJSON{MilestoneIndex: index, Items: p.Items, Cursor: p.Cursor, MaxResults: in.PageSize}, nil
}
