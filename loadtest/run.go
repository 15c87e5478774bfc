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
}

// maxProbeWorkers caps the probe: past it a loopback run measures the scheduler.
const maxProbeWorkers = 64

// Report is what a run measured.
type Report struct {
	BaseURL  string
	IDs      *IDs
	Workers  int
	Probe    []ProbeStep
	Clean    Phase // normal clients alone
	Attacked Phase // the same clients with the attackers running
	Attacks  []AttackStats
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
	client := newClient(max(cfg.Workers, maxProbeWorkers))
	defer client.CloseIdleConnections()
	ids, err := Discover(ctx, client, cfg.BaseURL, cfg.MaxMessages)
	if err != nil {
		return nil, fmt.Errorf("discover keys: %w", err)
	}
	progress("keys: %s", ids)
	routes := Mix(ids)
	rep := &Report{BaseURL: cfg.BaseURL, IDs: ids, Workers: cfg.Workers}
	if rep.Workers <= 0 {
		rep.Probe, rep.Workers = probe(ctx, cfg, client, routes, progress)
	}
	progress("phase 1: %d clients for %s, no attackers", rep.Workers, cfg.Duration)
	rep.Clean = runPhase(ctx, client, cfg.BaseURL, routes, rep.Workers, cfg.Duration, cfg.Seed, "without attackers")
	progress("  %s", rep.Clean.Total.line())
	progress("phase 2: %d clients for %s, with attackers (%s)", rep.Workers, cfg.Duration, cfg.Attack)
	actx, stop := context.WithCancel(ctx)
	attacks := startAttacks(actx, cfg.BaseURL, cfg.Attack, ids)
	rep.Attacked = runPhase(ctx, client, cfg.BaseURL, routes, rep.Workers, cfg.Duration, cfg.Seed+1, "with attackers")
	rep.Attacked.Attacked = true
	stop()
	rep.Attacks = attacks.wait()
	progress("  %s", rep.Attacked.Total.line())
	return rep, ctx.Err()
}

func newClient(conns int) *http.Client {
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		MaxIdleConns: conns, MaxIdleConnsPerHost: conns, IdleConnTimeout: 30 * time.Second,
		DisableCompression: true, ResponseHeaderTimeout: 30 * time.Second}}
}

// probe doubles the client count until two steps in a row fail to beat the best
// throughput so far by 5% (one noisy step does not end it), and returns the count with
// the highest throughput.
func probe(ctx context.Context, cfg Config, c *http.Client, routes []Route, progress func(string, ...any)) ([]ProbeStep, int) {
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
func runPhase(ctx context.Context, c *http.Client, base string, routes []Route, workers int, d time.Duration,
	seed int64, name string) Phase {
	ch := newChooser(routes)
	pctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	perWorker := make([][]sample, workers)
	start := time.Now()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			r := rand.New(rand.NewSource(seed*1000003 + int64(w)))
			var mine []sample
			for pctx.Err() == nil {
				i := ch.pick(r)
				t0 := time.Now()
				status := get(pctx, c, base+routes[i].Path(r))
				if status == 0 && pctx.Err() != nil {
					break // cut off by the end of the phase, not an answer
				}
				mine = append(mine, sample{route: i, latency: time.Since(t0), status: status})
			}
			perWorker[w] = mine
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	ph := Phase{Name: name, Elapsed: elapsed, Routes: make([]RouteStats, len(routes)), Total: RouteStats{Route: "all routes"}}
	for i, rt := range routes {
		ph.Routes[i].Route = rt.Name
	}
	for _, mine := range perWorker {
		for _, s := range mine {
			ph.Routes[s.route].add(s, routes[s.route].Miss)
			ph.Total.add(s, routes[s.route].Miss)
		}
	}
	for i := range ph.Routes {
		ph.Routes[i].finish(elapsed)
	}
	ph.Total.finish(elapsed)
	return ph
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
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil {
		return 0
	}
	return resp.StatusCode
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
		s.Max = s.latencies[n-1]
	}
	s.PerSec = float64(s.Requests) / elapsed.Seconds()
	s.latencies = nil
}

func (s RouteStats) line() string {
	return fmt.Sprintf("%d requests, %.0f req/s, p50 %s, p99 %s, 5xx %d, errors %d, unexpected %d",
		s.Requests, s.PerSec, s.P50.Round(time.Microsecond), s.P99.Round(time.Microsecond), s.S5xx, s.Errors, s.Unexpected)
}
