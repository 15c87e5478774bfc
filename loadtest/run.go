package loadtest

import (
	"context"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Config is one load run.
type Config struct {
	BaseURL string
	// Workers is the number of normal closed-loop clients (each sends its next request
	// when the previous answer is read). 0: probe 1, 2, 4, ... clients for ProbeTime
	// each and take the count with the highest throughput.
	Workers   int
	ProbeTime time.Duration // default 2s
	// Duration of each phase: first the normal clients alone, then with the attackers.
	Duration time.Duration
	Attack   Attack
	Seed     int64
	// MaxMessages bounds discovery (default 300).
	MaxMessages int
	// Progress receives a line per step; nil: quiet.
	Progress io.Writer
	// ClientRate paces each normal client to at most this many requests per second
	// (a client that stays within the server's per-client rate); 0: closed loop.
	ClientRate float64
	// DistinctClients gives each normal client, and the flooder, a source address of its
	// own (flood.go), so that a server limiting per client tells them apart.
	DistinctClients bool
}

// maxProbeWorkers caps the probe: past it a loopback run measures the scheduler.
const maxProbeWorkers = 64

// Report is what a run measured.
type Report struct {
	BaseURL string
	IDs     *IDs
	Workers int
	// ClientRate is each normal client's pace (0: closed loop).
	ClientRate float64
	Probe      []ProbeStep
	Clean      Phase // normal clients alone
	Attacked   Phase // the same clients with the attackers running
	Attacks    []AttackStats
}

// ProbeStep is one worker count tried while looking for the best throughput.
type ProbeStep struct {
	Workers int
	PerSec  float64
	P99     time.Duration
}

// Phase is the normal clients' figures over one phase.
type Phase struct {
	Name     string
	Elapsed  time.Duration
	Routes   []RouteStats // in mix order
	Total    RouteStats
	Attacked bool
}

// RouteStats are one route's (or all routes') answers in a phase.
type RouteStats struct {
	Route            string
	Requests         int
	PerSec           float64
	P50, P99, Max    time.Duration
	P999             time.Duration
	S2xx, S4xx, S5xx int
	Errors           int // transport errors (no answer)
	Unexpected       int // answers other than 200 (404 on the not-indexed route)
	latencies        []time.Duration
}

// FiveXX counts 5xx answers to normal clients and attackers.
func (r *Report) FiveXX() int {
	n := r.Clean.Total.S5xx + r.Attacked.Total.S5xx
	for _, a := range r.Attacks {
		n += a.FiveXX
	}
	return n
}

// Run discovers keys, finds the worker count (unless given), then runs the two phases.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Duration <= 0 {
		return nil, fmt.Errorf("duration %s: want a positive duration", cfg.Duration)
	}
	if cfg.ProbeTime <= 0 {
		cfg.ProbeTime = 2 * time.Second
	}
	if cfg.MaxMessages <= 0 {
		cfg.MaxMessages = 300
	}
	cfg.BaseURL = strings.TrimSuffix(cfg.BaseURL, "/")
	progress := func(format string, args ...any) {
		if cfg.Progress != nil {
			fmt.Fprintf(cfg.Progress, format+"\n", args...)
		}
	}
	if cfg.DistinctClients {
		if err := canBind(cfg.BaseURL); err != nil {
			return nil, err
		}
	}
	client := newClients(cfg, max(cfg.Workers, maxProbeWorkers))
	defer client.close()
	ids, err := Discover(ctx, client.shared, cfg.BaseURL, cfg.MaxMessages)
	if err != nil {
		return nil, fmt.Errorf("discover keys: %w", err)
	}
	progress("keys: %s", ids)
	routes := Mix(ids)
	rep := &Report{BaseURL: cfg.BaseURL, IDs: ids, Workers: cfg.Workers, ClientRate: cfg.ClientRate}
	if rep.Workers <= 0 {
		rep.Probe, rep.Workers = probe(ctx, cfg, client, routes, progress)
	}
	progress("phase 1: %d clients for %s, no attackers", rep.Workers, cfg.Duration)
	rep.Clean = runPhase(ctx, client, cfg.BaseURL, routes, rep.Workers, cfg.Duration, cfg.Seed, "without attackers")
	progress("  %s", rep.Clean.Total.line())
	progress("phase 2: %d clients for %s, with attackers (%s)", rep.Workers, cfg.Duration, cfg.Attack)
	actx, stop := context.WithCancel(ctx)
	attacks := startAttacks(actx, cfg.BaseURL, cfg.Attack, ids)
	floodFrom := ""
	if cfg.DistinctClients {
		floodFrom = floodAddr
	}
	startFlood(actx, attacks, cfg.BaseURL, cfg.Attack, routes, floodFrom, cfg.Seed)
	rep.Attacked = runPhase(ctx, client, cfg.BaseURL, routes, rep.Workers, cfg.Duration, cfg.Seed+1, "with attackers")
	rep.Attacked.Attacked = true
	stop()
	rep.Attacks = attacks.wait()
	progress("  %s", rep.Attacked.Total.line())
	return rep, ctx.Err()
}

// clients are the normal clients' HTTP clients: one shared, or one per worker from its
// own address; and each worker's pace.
type clients struct {
	shared *http.Client
	per    []*http.Client // with DistinctClients
	rate   float64
}

func newClients(cfg Config, workers int) *clients {
	c := &clients{shared: clientFrom("", workers), rate: cfg.ClientRate}
	if cfg.DistinctClients {
		for w := range workers {
			c.per = append(c.per, clientFrom(normalAddr(w), 1))
		}
	}
	return c
}

func (c *clients) of(w int) *http.Client {
	if w < len(c.per) {
		return c.per[w]
	}
	return c.shared
}

// pace is worker's pacer (nil: closed loop).
func (c *clients) pace() *rate.Limiter {
	if c.rate <= 0 {
		return nil
	}
	return rate.NewLimiter(rate.Limit(c.rate), 1)
}

func (c *clients) close() {
	c.shared.CloseIdleConnections()
	for _, p := range c.per {
		p.CloseIdleConnections()
	}
}

// probe doubles the client count until two steps in a row fail to beat the best
// throughput so far by 5% (one noisy step does not end it), and returns the count with
// the highest throughput.
func probe(ctx context.Context, cfg Config, c *clients, routes []Route, progress func(string, ...any)) ([]ProbeStep, int) {
	var steps []ProbeStep
	var best ProbeStep
	misses := 0
	for w := 1; w <= maxProbeWorkers && misses < 2 && ctx.Err() == nil; w *= 2 {
		ph := runPhase(ctx, c, cfg.BaseURL, routes, w, cfg.ProbeTime, cfg.Seed+int64(w)*7, "probe")
		step := ProbeStep{Workers: w, PerSec: ph.Total.PerSec, P99: ph.Total.P99}
		steps = append(steps, step)
		progress("probe: %2d clients: %7.0f req/s, p99 %s", w, step.PerSec, step.P99.Round(time.Microsecond))
		if step.PerSec >= best.PerSec*1.05 {
			misses = 0
		} else {
			misses++
		}
		if step.PerSec > best.PerSec {
			best = step
		}
	}
	return steps, max(best.Workers, 1)
}

// sample is one answer.
type sample struct {
	route   int
	latency time.Duration
	status  int // 0: transport error
}

// runPhase runs workers closed-loop clients for d.
func runPhase(ctx context.Context, c *clients, base string, routes []Route, workers int, d time.Duration,
	seed int64, name string) Phase {
	start := time.Now()
	all := runSamples(ctx, c, base, routes, workers, d, seed)
	return phaseOf(name, routes, all, time.Since(start))
}

// runSamples runs workers normal clients over routes for d and returns every answer's
// sample.
func runSamples(ctx context.Context, c *clients, base string, routes []Route, workers int, d time.Duration,
	seed int64) []sample {
	ch := newChooser(routes)
	pctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	perWorker := make([][]sample, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			r := rand.New(rand.NewSource(seed*1000003 + int64(w)))
			hc, pace := c.of(w), c.pace()
			var mine []sample
			for pctx.Err() == nil {
				if pace != nil && pace.Wait(pctx) != nil {
					break
				}
				i := ch.pick(r)
				t0 := time.Now()
				status := get(pctx, hc, base+routes[i].Path(r))
				if status == 0 && pctx.Err() != nil {
					break // cut off by the end of the phase, not an answer
				}
				mine = append(mine, sample{route: i, latency: time.Since(t0), status: status})
			}
			perWorker[w] = mine
		})
	}
	wg.Wait()
	var all []sample
	for _, mine := range perWorker {
		all = append(all, mine...)
	}
	return all
}

// get sends one GET and reads the whole answer; it returns the status (0: no answer).
func get(ctx context.Context, c *http.Client, url string) int {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0
	}
	if drain(resp) != nil {
		return 0
	}
	return resp.StatusCode
}

// drain reads and closes an answer's body.
func drain(resp *http.Response) error {
	_, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return err
}

func (s *RouteStats) add(x sample, miss bool) {
	s.Requests++
	s.latencies = append(s.latencies, x.latency)
	switch {
	case x.status == 0:
		s.Errors++
	case x.status >= 500:
		s.S5xx++
	case x.status >= 400:
		s.S4xx++
	case x.status >= 200 && x.status < 300:
		s.S2xx++
	}
	want := http.StatusOK
	if miss {
		want = http.StatusNotFound
	}
	if x.status != want {
		s.Unexpected++
	}
}

func (s *RouteStats) finish(elapsed time.Duration) {
	slices.Sort(s.latencies)
	if n := len(s.latencies); n > 0 {
		s.P50 = s.latencies[n/2]
		s.P99 = s.latencies[min(n-1, n*99/100)]
		s.P999 = s.latencies[min(n-1, n*999/1000)]
		s.Max = s.latencies[n-1]
	}
	s.PerSec = float64(s.Requests) / elapsed.Seconds()
}

// Merge is the figures of several phases' totals taken as one run: their requests
// counted together and their percentiles over all their latencies.
func Merge(name string, phases ...Phase) RouteStats {
	out := RouteStats{Route: name}
	var elapsed time.Duration
	for _, ph := range phases {
		t := ph.Total
		elapsed += ph.Elapsed
		out.Requests += t.Requests
		out.S2xx, out.S4xx, out.S5xx = out.S2xx+t.S2xx, out.S4xx+t.S4xx, out.S5xx+t.S5xx
		out.Errors, out.Unexpected = out.Errors+t.Errors, out.Unexpected+t.Unexpected
		out.latencies = append(out.latencies, t.latencies...)
	}
	out.finish(max(elapsed, time.Nanosecond))
	return out
}

func (s RouteStats) line() string {
	return fmt.Sprintf("%d requests, %.0f req/s, p50 %s, p99 %s, 5xx %d, errors %d, unexpected %d",
		s.Requests, s.PerSec, s.P50.Round(time.Microsecond), s.P99.Round(time.Microsecond), s.S5xx, s.Errors, s.Unexpected)
}

// PhaseOfLatencies is a phase of answers that all succeeded after these latencies,
// for figures measured elsewhere (and for tests of what reads a Phase).
func PhaseOfLatencies(name string, elapsed time.Duration, latencies ...time.Duration) Phase {
	ph := Phase{Name: name, Elapsed: elapsed, Total: RouteStats{Route: "all routes"}}
	for _, l := range latencies {
		ph.Total.add(sample{latency: l, status: http.StatusOK}, false)
	}
	ph.Total.finish(max(elapsed, time.Nanosecond))
	return ph
}
