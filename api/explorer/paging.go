package explorer

import (
	"errors"
	"strconv"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// Paging of the explorer routes. They take Chronicle's parameter names, pageSize and
// cursor (this API's other lists say page_size), and Chronicle's rule for a page size
// above the maximum (clampedPageSizeKind), so they are not `paged` routes: each
// handler calls explorerPaging first, which fills in the same fields parseInput fills
// for paged routes; walk and the cursor format are this API's own (an opaque cursor
// tied to the query, naming a partition and a paging state).

// explorerPageParams are the query parameters of the explorer's paged routes.
type explorerPageParams struct {
	PageSize *int    `query:"pageSize" kind:"clampedPageSize" doc:"items per page (from 1, default 100; above 1000 the page holds 1000, as maxResults says)"`
	Cursor   *string `query:"cursor" kind:"cursor" doc:"where the page starts: the cursor of the previous page"`
}

// sortParams order a list: newest first unless sort=oldest.
type sortParams struct {
	Oldest *bool `query:"sort" kind:"sort" doc:"newest (default): newest first; oldest: oldest first"`
}

// oldest is the order asked: true for sort=oldest.
func (p *sortParams) oldest() bool { return p.Oldest != nil && *p.Oldest }

// The explorer's kinds, by the names its parameter structs give them.
var _ = rest.NamedKinds(map[string]rest.Kind{"clampedPageSize": clampedPageSizeKind, "unixSeconds": unixSecondsKind,
	"milestoneCursor": milestoneCursorKind, "top": topKind})

// clampedPageSizeKind is the explorer's page size, as Chronicle reads it: an integer from
// 1, where a value above maxPageSize is answered with maxPageSize (Chronicle clamps its
// page size to its maximum rather than refusing it); the answer's maxResults is the
// size in effect. The other APIs refuse such a value (pageSizeKind).
var clampedPageSizeKind = clampedKind(rest.MaxPageSize, rest.DefaultPageSize)

// clampedKind accepts an integer from 1 and answers a larger one than limit with limit.
func clampedKind(limit, def int) rest.Kind {
	return rest.TypedKind(map[string]any{"type": "integer", "minimum": 1, "default": def,
		"description": "above " + rest.Itoa(limit) + " it is " + rest.Itoa(limit) + " (the answer's maxResults)"},
		func(name, v string) (int, error) { return parseClamped(name, v, limit) })
}

// parseClamped reads a decimal integer from 1, clamped to limit (digits too many for an
// integer are above limit too); anything else is a 400 naming the parameter.
func parseClamped(name, value string, limit int) (int, error) {
	n, err := strconv.ParseUint(value, 10, 64)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return limit, nil
	case err != nil || n < 1:
		return 0, rest.BadParam(name, "want an integer from 1 (above %d answers %d), got %s", limit, limit, rest.Quote(value))
	}
	return int(min(n, uint64(limit))), nil
}

// explorerPaging takes the page size and decodes the cursor against the hash of the
// other parameters and list, the name of the list (routes that serve one list under two
// paths share it, so a cursor of one is good on the other).
func explorerPaging(in *rest.Input, list string, p *explorerPageParams) error {
	if p.PageSize != nil {
		in.PageSize = *p.PageSize
	}
	values := map[string]any{}
	for name, v := range in.Values {
		if name != "pageSize" && name != "cursor" {
			values[name] = v
		}
	}
	in.Hash = rest.HashQuery(list, values)
	if p.Cursor == nil {
		return nil
	}
	c, err := rest.DecodeCursor(*p.Cursor, in.Hash)
	if err != nil {
		return rest.BadParam("cursor", "%v", err)
	}
	in.Cursor = &c
	return nil
}
