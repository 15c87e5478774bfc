package benchscale

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/stardust-indexer/stardust-indexer/loadtest"
)

// keysPerRoute: each list route is asked about this many addresses or tags.
const keysPerRoute = 3

// listRoute is one list route and the requests that time it.
type listRoute struct {
	name  string
	paths []string
}

// listRoutes are the list routes timed at each size: the same addresses and tags (found
// once, at the first size) so that the answers come from histories that grew; the
// milestones list asks for the newest 100, as an explorer's front page does.
func listRoutes(ids *loadtest.IDs, newest int) []listRoute {
	addrs := ids.Addresses[:min(keysPerRoute, len(ids.Addresses))]
	tags := ids.Tags[:min(keysPerRoute, len(ids.Tags))]
	each := func(keys []string, format string) []string {
		var out []string
		for _, k := range keys {
			out = append(out, fmt.Sprintf(format, url.PathEscape(k)))
		}
		return out
	}
	return []listRoute{
		{"address history (explorer)", each(addrs, "/api/explorer/v2/addresses/%s/history?pageSize=20")},
		{"outputs by address (/outputs)", each(addrs, "/outputs?address=%s&page_size=20")},
		{"unspent by address (TIP-26)", each(addrs, "/api/indexer/v1/outputs/basic?address=%s&pageSize=20")},
		{"messages by tag", each(tags, "/tags/%s/messages?page_size=20")},
		{"milestones, newest 100", []string{fmt.Sprintf("/milestones?start=%d&end=%d", max(newest-99, 1), newest)}},
	}
}

// timeRoutes asks every route's paths once untimed (warm-up), then makes requests passes
// over the routes, each pass asking every route once (its paths in turn), and returns
// each route's median latency. Interleaved, a compaction or flush of the node that
// slows some seconds of the run weighs on every route alike, not on whichever route
// was being timed then.
func timeRoutes(ctx context.Context, base string, routes []listRoute, requests int) (map[string]time.Duration, error) {
	c := &http.Client{Timeout: 30 * time.Second}
	lat := map[string][]time.Duration{}
	for _, rt := range routes {
		for _, p := range rt.paths {
			if _, err := get(ctx, c, base+p); err != nil {
				return nil, err
			}
		}
	}
	for i := range requests {
		for _, rt := range routes {
			if len(rt.paths) == 0 {
				continue
			}
			took, err := get(ctx, c, base+rt.paths[i%len(rt.paths)])
			if err != nil {
				return nil, err
			}
			lat[rt.name] = append(lat[rt.name], took)
		}
	}
	out := map[string]time.Duration{}
	for name, l := range lat {
		slices.Sort(l)
		out[name] = l[len(l)/2]
	}
	return out, nil
}

// get fetches one URL, reading the whole answer, and says how long that took.
func get(ctx context.Context, c *http.Client, u string) (time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, err
	}
	start := time.Now()
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return 0, err
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	return time.Since(start), nil
}
