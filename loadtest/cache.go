package loadtest

import (
	"context"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"slices"
	"strings"
	"time"
)

// CacheConfig is a caching run: requests drawn from the route mix, one at a time, to
// find what share of the mix's answers are immutable (a cache in front keeps them for
// good) and what a revalidation costs beside a full answer.
type CacheConfig struct {
	BaseURL     string
	Rounds      int // requests drawn from the mix
	Seed        int64
	MaxMessages int
	Progress    io.Writer
	// DistinctClients spreads the rounds over cacheClients clients, each from a loopback
	// address of its own (flood.go), so that the API's per-client rate does not answer
	// the replays with 429.
	DistinctClients bool
}

// cacheClients is the clients a caching run's rounds are spread over.
const cacheClients = 32

// CacheReport is what a caching run measured, per route of the mix and in total.
type CacheReport struct {
	BaseURL string
	IDs     *IDs
	Routes  []CacheRoute // in mix order
	Total   CacheRoute
}

// CacheRoute is one route's figures: of its drawn requests, how many answers carried
// immutable; of its answers with an ETag, the p50 of the same request sent again plain
// (200) and with If-None-Match (304), side by side.
type CacheRoute struct {
	Route       string
	Requests    int
	Immutable   int
	Replays     int // answers with an ETag, each sent twice more
	NotModified int // replays with If-None-Match answered 304
	P50OK       time.Duration
	P50Revalid  time.Duration
	BytesOK     int // body bytes of the 200s, in all
	FiveXX      int // first answers that were 5xx
	Limited     int // first answers that were 429
	// Moving counts, by URL, the first answers that did not carry immutable.
	Moving      map[string]int
	ok, revalid []time.Duration
}

// cacheAnswer is what one request of a caching run got.
type cacheAnswer struct {
	status       int
	cacheControl string
	etag         string
	bytes        int
	took         time.Duration
}

// RunCache discovers keys and draws Rounds requests from the route mix: each is sent
// once (its Cache-Control counted), then, when it has an ETag, again plain and again
// with If-None-Match, the two timed.
func RunCache(ctx context.Context, cfg CacheConfig) (*CacheReport, error) {
	if cfg.Rounds <= 0 {
		return nil, fmt.Errorf("cache run: %d rounds, want a positive count", cfg.Rounds)
	}
	cfg.BaseURL = strings.TrimSuffix(cfg.BaseURL, "/")
	if cfg.DistinctClients {
		if err := canBind(cfg.BaseURL); err != nil {
			return nil, err
		}
	}
	c := openClients(OpenConfig{Clients: cacheClients, DistinctClients: cfg.DistinctClients})
	defer c.close()
	ids, err := Discover(ctx, c.shared, cfg.BaseURL, max(cfg.MaxMessages, 1))
	if err != nil {
		return nil, fmt.Errorf("discover keys: %w", err)
	}
	if cfg.Progress != nil {
		fmt.Fprintf(cfg.Progress, "keys: %s\ncache: %d requests drawn from the mix, each replayed\n", ids, cfg.Rounds)
	}
	routes := Mix(ids)
	rep := &CacheReport{BaseURL: cfg.BaseURL, IDs: ids, Routes: make([]CacheRoute, len(routes))}
	for i, rt := range routes {
		rep.Routes[i].Route = rt.Name
	}
	ch, r := newChooser(routes), rand.New(rand.NewSource(cfg.Seed))
	for k := 0; k < cfg.Rounds && ctx.Err() == nil; k++ {
		i := ch.pick(r)
		if err := rep.Routes[i].measure(ctx, c.of(k%cacheClients), cfg.BaseURL+routes[i].Path(r)); err != nil {
			return nil, err
		}
	}
	rep.finish()
	return rep, ctx.Err()
}

// measure sends url once, then, if the answer has an ETag, plain and with If-None-Match.
func (s *CacheRoute) measure(ctx context.Context, c *http.Client, url string) error {
	first, err := cacheGet(ctx, c, url, "")
	if err != nil {
		return err
	}
	s.Requests++
	switch {
	case first.status >= 500:
		s.FiveXX++
	case first.status == http.StatusTooManyRequests:
		s.Limited++
	}
	if strings.Contains(first.cacheControl, "immutable") {
		s.Immutable++
	} else {
		if s.Moving == nil {
			s.Moving = map[string]int{}
		}
		s.Moving[url]++
	}
	if first.etag == "" || first.status != http.StatusOK {
		return nil
	}
	plain, err := cacheGet(ctx, c, url, "")
	if err != nil {
		return err
	}
	again, err := cacheGet(ctx, c, url, first.etag)
	if err != nil {
		return err
	}
	s.Replays++
	s.ok, s.BytesOK = append(s.ok, plain.took), s.BytesOK+plain.bytes
	if again.status == http.StatusNotModified {
		s.NotModified++
		s.revalid = append(s.revalid, again.took)
	}
	return nil
}

// cacheGet sends one GET (with If-None-Match when etag is set) and reads the answer.
func cacheGet(ctx context.Context, c *http.Client, url, etag string) (cacheAnswer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return cacheAnswer{}, fmt.Errorf("GET %s: %w", url, err)
	}
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	start := time.Now()
	resp, err := c.Do(req)
	if err != nil {
		return cacheAnswer{}, fmt.Errorf("GET %s: %w", url, err)
	}
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil {
		return cacheAnswer{}, fmt.Errorf("GET %s: reading the answer: %w", url, err)
	}
	return cacheAnswer{status: resp.StatusCode, cacheControl: resp.Header.Get("Cache-Control"),
		etag: resp.Header.Get("ETag"), bytes: int(n), took: time.Since(start)}, nil
}

func (rep *CacheReport) finish() {
	rep.Total.Route = "all"
	for i := range rep.Routes {
		s := &rep.Routes[i]
		t := &rep.Total
		t.Requests, t.Immutable, t.Replays = t.Requests+s.Requests, t.Immutable+s.Immutable, t.Replays+s.Replays
		t.NotModified, t.BytesOK = t.NotModified+s.NotModified, t.BytesOK+s.BytesOK
		t.FiveXX, t.Limited = t.FiveXX+s.FiveXX, t.Limited+s.Limited
		t.ok, t.revalid = append(t.ok, s.ok...), append(t.revalid, s.revalid...)
		s.P50OK, s.P50Revalid = p50(s.ok), p50(s.revalid)
	}
	rep.Total.P50OK, rep.Total.P50Revalid = p50(rep.Total.ok), p50(rep.Total.revalid)
}

func p50(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(d))
	return s[len(s)/2]
}

// ImmutableShare is the share of the drawn requests whose answers carried immutable.
func (rep *CacheReport) ImmutableShare() float64 {
	return float64(rep.Total.Immutable) / float64(max(rep.Total.Requests, 1))
}

// WriteText prints the report as a Markdown table and a summary line.
func (rep *CacheReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "API %s, keys: %s\n\n", rep.BaseURL, rep.IDs)
	fmt.Fprintln(w, "| route | requests | immutable | replays | 304s | p50 200 (ms) | p50 304 (ms) | bytes per 200 |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, s := range append(slices.Clone(rep.Routes), rep.Total) {
		if s.Requests == 0 {
			continue
		}
		fmt.Fprintf(w, "| %s | %d | %.0f%% | %d | %d | %s | %s | %d |\n", s.Route, s.Requests,
			100*float64(s.Immutable)/float64(s.Requests), s.Replays, s.NotModified, ms(s.P50OK), ms(s.P50Revalid),
			s.BytesOK/max(s.Replays, 1))
	}
	fmt.Fprintf(w, "\nImmutable answers: %.1f%% of %d requests drawn from the mix. Same request sent again: "+
		"p50 %s ms for a 200, %s ms for a 304 (If-None-Match). 429: %d, 5xx: %d.\n", 100*rep.ImmutableShare(),
		rep.Total.Requests, ms(rep.Total.P50OK), ms(rep.Total.P50Revalid), rep.Total.Limited, rep.Total.FiveXX)
}
