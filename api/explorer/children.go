package explorer

import (
	"context"
	"errors"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// maxChildrenRead bounds the children one request reads: Chronicle pages them by
// page number (pageSize, page), so a page is found by reading the rows before it.
const maxChildrenRead = 10000

// blockChildrenParams: a block, and Chronicle's page-number paging (its Pagination
// extractor).
type blockChildrenParams struct {
	rest.BlockIDParams
	PageSize *int    `query:"pageSize" kind:"clampedPageSize" doc:"items per page (from 1, default 100; above 1000 the page holds 1000, as maxResults says)"`
	Page     *uint32 `query:"page" kind:"index" doc:"the page number, from 0 (default 0)"`
}

// BlockChildrenJSON is Chronicle's BlockChildrenResponse: maxResults is the page size
// in effect (the one asked for, clamped to the maximum), count the number of children on
// this page.
type BlockChildrenJSON struct {
	BlockID    string   `json:"blockId"`
	MaxResults int      `json:"maxResults"`
	Count      int      `json:"count"`
	Children   []string `json:"children"`
}

// blockChildren is one page of a block's referenced children, newest first (Chronicle
// lists the blocks naming it as a parent that a milestone referenced, newest milestone
// first); 404 when the block is not indexed.
func (s *API) blockChildren(ctx context.Context, _ *rest.Input, p *blockChildrenParams) (any, error) {
	id := p.BlockID
	size := rest.DefaultPageSize
	if p.PageSize != nil {
		size = *p.PageSize
	}
	var page uint32
	if p.Page != nil {
		page = *p.Page
	}
	skip := uint64(page) * uint64(size)
	if skip+uint64(size) > maxChildrenRead {
		return nil, rest.BadParam("page", "page %d of %d children reaches past the first %d children",
			page, size, maxChildrenRead)
	}
	if _, err := s.st.MessageMetadata(ctx, id); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, rest.NotFound("block %s is not indexed", id)
		}
		return nil, err
	}
	ids, err := s.referencedChildren(ctx, id, int(skip)+size)
	if err != nil {
		return nil, err
	}
	children := []string{}
	if int(skip) < len(ids) {
		children = ids[skip:]
	}
	return BlockChildrenJSON{BlockID: id, MaxResults: size, Count: len(children), Children: children}, nil
}

// referencedChildren reads up to n referenced children of a block, newest first
// (children a milestone has not referenced are left out, as Chronicle holds none).
func (s *API) referencedChildren(ctx context.Context, id string, n int) ([]string, error) {
	var ids []string
	req := store.PageRequest{Size: min(n, rest.MaxPageSize)}
	for len(ids) < n {
		rows, next, err := s.st.ChildrenPage(ctx, id, store.TimeRange{}, req)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			if r.MilestoneIndex != nil && len(ids) < n {
				ids = append(ids, r.MessageID)
			}
		}
		if len(next) == 0 {
			break
		}
		req.State = next
	}
	return ids, nil
}
