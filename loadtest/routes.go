package loadtest

import (
	"fmt"
	"math/rand"
)

// Route is one kind of request the normal clients make.
type Route struct {
	Name   string // the route pattern, as the API's metrics name it
	Weight int    // share of the mix
	Path   func(r *rand.Rand) string
	// Miss: the key is not indexed and 404 is the right answer.
	Miss bool
}

func pick(r *rand.Rand, s []string) string { return s[r.Intn(len(s))] }

// Mix is the route mix over ids: lookups by key weigh most, lists (which read several
// partitions) less, status and misses a little. Routes whose keys were not found are
// left out.
func Mix(ids *IDs) []Route {
	var routes []Route
	// keys < 0: the route needs none; 0: none were found and the route is left out.
	addN := func(name string, weight, keys int, path func(r *rand.Rand) string) {
		if keys == 0 {
			return
		}
		routes = append(routes, Route{Name: name, Weight: weight, Path: path})
	}
	add := func(name string, weight int, keys []string, path func(r *rand.Rand) string) {
		addN(name, weight, len(keys), path)
	}
	ms := func(r *rand.Rand) uint32 { return ids.Milestones[r.Intn(len(ids.Milestones))] }
	add("/messages/{id}", 20, ids.Messages, func(r *rand.Rand) string { return "/messages/" + pick(r, ids.Messages) })
	add("/messages/{id}/raw", 5, ids.Messages, func(r *rand.Rand) string { return "/messages/" + pick(r, ids.Messages) + "/raw" })
	add("/messages/{id}/children", 5, ids.Messages, func(r *rand.Rand) string {
		return "/messages/" + pick(r, ids.Messages) + "/children?page_size=20"
	})
	add("/transactions/{id}", 10, ids.Transactions, func(r *rand.Rand) string {
		return "/transactions/" + pick(r, ids.Transactions)
	})
	add("/transactions/{id}/included-message", 5, ids.Included, func(r *rand.Rand) string {
		return "/transactions/" + pick(r, ids.Included) + "/included-message"
	})
	addN("/milestones/{index}", 10, len(ids.Milestones), func(r *rand.Rand) string { return fmt.Sprintf("/milestones/%d", ms(r)) })
	addN("/milestones", 4, len(ids.Milestones), func(r *rand.Rand) string {
		end := ms(r)
		return fmt.Sprintf("/milestones?start=%d&end=%d", max(end, 10)-9, end)
	})
	add("/tags/{tag}/messages", 8, ids.Tags, func(r *rand.Rand) string {
		return "/tags/" + pick(r, ids.Tags) + "/messages?page_size=20"
	})
	add("/outputs", 10, ids.Addresses, func(r *rand.Rand) string {
		return "/outputs?address=" + pick(r, ids.Addresses) + "&page_size=20"
	})
	add("/outputs/{outputId}", 10, ids.Outputs, func(r *rand.Rand) string { return "/outputs/" + pick(r, ids.Outputs) })
	add("/aliases", 3, ids.StateControllers, func(r *rand.Rand) string {
		return "/aliases?stateController=" + pick(r, ids.StateControllers) + "&page_size=20"
	})
	add("/nft/{nftId}", 2, ids.NFTs, func(r *rand.Rand) string { return "/nft/" + pick(r, ids.NFTs) })
	addN("/sync", 2, -1, func(*rand.Rand) string { return "/sync" })
	routes = append(routes, Route{Name: "/messages/{id} (not indexed)", Weight: 1, Miss: true,
		Path: func(r *rand.Rand) string { return fmt.Sprintf("/messages/0x%064x", r.Uint64()) }})
	return routes
}

// chooser picks routes by weight.
type chooser struct {
	routes []Route
	total  int
}

func newChooser(routes []Route) *chooser {
	c := &chooser{routes: routes}
	for _, rt := range routes {
		c.total += rt.Weight
	}
	return c
}

func (c *chooser) pick(r *rand.Rand) int {
	n := r.Intn(c.total)
	for i, rt := range c.routes {
		if n < rt.Weight {
			return i
		}
		n -= rt.Weight
	}
	return len(c.routes) - 1
}
