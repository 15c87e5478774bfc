package api

import (
	"context"
	"slices"
	"strings"
)

// defaultRouteDepth is how many path segments GET /routes keeps by default (Chronicle's).
const defaultRouteDepth = 3

// routeListJSON is Chronicle's RoutesResponse.
type routeListJSON struct {
	Routes []string `json:"routes"`
}

// routeListParams: how deep the route list goes.
type routeListParams struct {
	Depth *uint32 `query:"depth" kind:"index" doc:"path segments kept (default 3)"`
}

// listRoutes is Chronicle's GET /routes: every route's path cut to its first depth
// segments, joined by "/" without a leading one, sorted and without repeats. Every route
// is public here (no JWT), so the list is the one Chronicle gives an authorised client.
func (s *explorerAPI) listRoutes(_ context.Context, _ *input, p *routeListParams) (any, error) {
	depth := defaultRouteDepth
	if p.Depth != nil {
		depth = int(*p.Depth)
	}
	var out []string
	routes := s.allRoutes()
	for i := range routes {
		pieces := slices.DeleteFunc(strings.Split(routes[i].pattern, "/"), func(p string) bool { return p == "" })
		out = append(out, strings.Join(pieces[:min(depth, len(pieces))], "/"))
	}
	slices.Sort(out)
	return routeListJSON{Routes: slices.Compact(out)}, nil
}
