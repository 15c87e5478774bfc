package loadtest

import (
	"context"
	"fmt"
	"io"
	"math/rand"
	"strings"
	"sync"
	"time"
)

// OpenConfig is an open-loop run: requests leave on a fixed schedule whatever the
// answers do, so a stall of the server shows as latency (measured from each request's
// scheduled send time) rather than as fewer requests, which is how a closed loop hides
// it (coordinated omission).
type OpenConfig struct {
	BaseURL  string
	Rate     float64 // requests per second, all routes and clients together
	Duration time.Duration
	// Clients spreads the schedule round-robin over this many clients; with
	// DistinctClients each connects from a loopback address of its own (flood.go), so
	// the API's per-client rate (default 50/s) sees Rate/Clients from each.
	Clients         int
	DistinctClients bool
	// MaxInFlight bounds the requests awaiting an answer; a request due while it is
	// reached is not sent and counted as Skipped (with the scheduled latency lost, so
	// the report says how many). Default 20000.
	MaxInFlight int
	Seed        int64
	MaxMessages int
	Progress    io.Writer
}

// OpenReport is what an open-loop run measured.
type OpenReport struct {
	BaseURL  string
	IDs      *IDs
	Rate     float64
	Clients  int
	Distinct bool
	Phase    Phase // per route and in total; percentiles from the scheduled send times
	Sent     int
	Skipped  int           // due while MaxInFlight requests were unanswered: not sent
	MaxLate  time.Duration // the most a send left after its scheduled time
}

// RunOpen discovers keys, then sends Rate requests a second of the route mix for
// Duration, each on its schedule.
func RunOpen(ctx context.Context, cfg OpenConfig) (*OpenReport, error) {
	if cfg.Rate <= 0 || cfg.Duration <= 0 {
		return nil, fmt.Errorf("open loop: rate %g, duration %s: want both positive", cfg.Rate, cfg.Duration)
	}
	cfg.defaults()
	if cfg.DistinctClients {
		if err := canBind(cfg.BaseURL); err != nil {
			return nil, err
		}
	}
	c := openClients(cfg)
	defer c.close()
	ids, err := Discover(ctx, c.shared, cfg.BaseURL, cfg.MaxMessages)
	if err != nil {
		return nil, fmt.Errorf("discover keys: %w", err)
	}
	if cfg.Progress != nil {
		fmt.Fprintf(cfg.Progress, "keys: %s\nopen loop: %g req/s over %d clients for %s\n", ids, cfg.Rate, cfg.Clients, cfg.Duration)
	}
	rep := &OpenReport{BaseURL: cfg.BaseURL, IDs: ids, Rate: cfg.Rate, Clients: cfg.Clients, Distinct: cfg.DistinctClients}
	routes := Mix(ids)
	samples, start := rep.schedule(ctx, cfg, c, routes)
	rep.Phase = phaseOf("open loop", routes, samples, time.Since(start))
	return rep, ctx.Err()
}

// openConnsPerClient is the idle connections each client keeps: its requests overlap
// when answers are slow, and the API allows 16 in flight per client by default.
const openConnsPerClient = 16

func openClients(cfg OpenConfig) *clients {
	c := &clients{shared: clientFrom("", max(cfg.Clients, openConnsPerClient))}
	if cfg.DistinctClients {
		for w := range cfg.Clients {
			c.per = append(c.per, clientFrom(normalAddr(w), openConnsPerClient))
		}
	}
	return c
}

func (cfg *OpenConfig) defaults() {
	cfg.BaseURL = strings.TrimSuffix(cfg.BaseURL, "/")
	if cfg.Clients <= 0 {
		cfg.Clients = 64
	}
	if cfg.MaxInFlight <= 0 {
		cfg.MaxInFlight = 20000
	}
	if cfg.MaxMessages <= 0 {
		cfg.MaxMessages = 300
	}
}

// schedule sends request k at start + k/Rate from client k mod Clients, each in a
// goroutine of its own, and waits for every answer (or the clients' timeout).
func (rep *OpenReport) schedule(ctx context.Context, cfg OpenConfig, c *clients, routes []Route) ([]sample, time.Time) {
	ch := newChooser(routes)
	r := rand.New(rand.NewSource(cfg.Seed))
	interval := time.Duration(float64(time.Second) / cfg.Rate)
	total := int(cfg.Duration / interval)
	var (
		mu      sync.Mutex
		samples = make([]sample, 0, total)
		wg      sync.WaitGroup
		slots   = make(chan struct{}, cfg.MaxInFlight)
	)
	start := time.Now()
	for k := 0; k < total && ctx.Err() == nil; k++ {
		due := start.Add(time.Duration(k) * interval)
		if d := time.Until(due); d > 0 {
			time.Sleep(d)
		}
		rep.MaxLate = max(rep.MaxLate, time.Since(due))
		i, hc := ch.pick(r), c.of(k%cfg.Clients)
		url := cfg.BaseURL + routes[i].Path(r)
		select {
		case slots <- struct{}{}:
		default:
			rep.Skipped++
			continue
		}
		rep.Sent++
		wg.Go(func() {
			defer func() { <-slots }()
			status := get(ctx, hc, url)
			s := sample{route: i, latency: time.Since(due), status: status}
			mu.Lock()
			samples = append(samples, s)
			mu.Unlock()
		})
	}
	wg.Wait()
	return samples, start
}

// phaseOf folds samples into per-route and total figures.
func phaseOf(name string, routes []Route, samples []sample, elapsed time.Duration) Phase {
	ph := Phase{Name: name, Elapsed: elapsed, Routes: make([]RouteStats, len(routes)), Total: RouteStats{Route: "all routes"}}
	for i, rt := range routes {
		ph.Routes[i].Route = rt.Name
	}
	for _, s := range samples {
		ph.Routes[s.route].add(s, routes[s.route].Miss)
		ph.Total.add(s, routes[s.route].Miss)
	}
	for i := range ph.Routes {
		ph.Routes[i].finish(elapsed)
	}
	ph.Total.finish(elapsed)
	return ph
}

// WriteText prints the open-loop figures as a Markdown table.
func (rep *OpenReport) WriteText(w io.Writer) {
	from := "one address"
	if rep.Distinct {
		from = "an address each"
	}
	fmt.Fprintf(w, "API %s, keys: %s\n\n", rep.BaseURL, rep.IDs)
	fmt.Fprintf(w, "Open loop: %g req/s scheduled over %d clients (%s) for %s; %d sent, %d skipped (in-flight cap), "+
		"latest send %s ms behind schedule. Latency in ms from each request's scheduled send time.\n\n",
		rep.Rate, rep.Clients, from, rep.Phase.Elapsed.Round(time.Millisecond), rep.Sent, rep.Skipped, ms(rep.MaxLate))
	fmt.Fprintln(w, "| route | requests | req/s | p50 | p99 | p999 | max | 2xx | 4xx | 5xx | errors | unexpected |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for i, s := range append(append([]RouteStats(nil), rep.Phase.Routes...), rep.Phase.Total) {
		name := s.Route
		if i == len(rep.Phase.Routes) {
			name = "**" + name + "**"
		}
		fmt.Fprintf(w, "| %s | %d | %.0f | %s | %s | %s | %s | %d | %d | %d | %d | %d |\n", name, s.Requests, s.PerSec,
			ms(s.P50), ms(s.P99), ms(s.P999), ms(s.Max), s.S2xx, s.S4xx, s.S5xx, s.Errors, s.Unexpected)
	}
	fmt.Fprintln(w)
}

// Failed says whether any answer was a 5xx or any request got none (or was not sent).
func (rep *OpenReport) Failed() bool {
	return rep.Phase.Total.S5xx > 0 || rep.Phase.Total.Errors > 0 || rep.Skipped > 0
}
