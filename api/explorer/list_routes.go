package explorer

import (
	"context"
	"slices"
	"strings"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// DefaultRouteDepth is how many path segments GET /routes keeps by default (Chronicle's).
const DefaultRouteDepth = 3

// RouteListJSON is Chronicle's RoutesResponse.
type RouteListJSON struct {
	Routes []string `json:"routes"`
}

// routeListParams: how deep the route list goes.
type routeListParams struct {
	Depth *uint32 `query:"depth" kind:"index" doc:"path segments kept (default 3)"`
}

// listRoutes is Chronicle's GET /routes: every route's path cut to its first depth
// segments, joined by "/" without a leading one, sorted and without repeats. Every route
// is public here (no JWT), so the list is the one Chronicle gives an authorised client.
func (s *API) listRoutes(_ context.Context, _ *rest.Input, p *routeListParams) (any, error) {
	depth := DefaultRouteDepth
	if p.Depth != nil {
		depth = int(*p.Depth)
	}
	var out []string
	routes := s.allRoutes()
	for i := range routes {
		pieces := slices.DeleteFunc(strings.Split(routes[i].Pattern, "/"), func(p string) bool { return p == "" })
		out = append(out, strings.Join(pieces[:min(depth, len(pieces))], "/"))
	}
	slices.Sort(out)
	return RouteListJSON{Routes: slices.Compact(out)}, nil
}
