package loadtest

import (
	"context"
	"fmt"
	"io"
	"maps"
	"math/rand"
	"slices"
	"strings"
	"time"
)

// CompareConfig is a run that asks what a flood of one path costs the normal clients,
// path against path: the same paced normal clients (Config's Workers, ClientRate and
// DistinctClients) run a phase alone, then one phase beside a flood of each target, in
// Rounds rounds (the targets' order reversed every other round, so neither always
// follows the other). The flooder is one client (its own address with DistinctClients)
// with FloodConns keep-alive connections sending its target without pause.
type CompareConfig struct {
	Config
	Targets    []string // paths to flood, e.g. /health and a rate-limited route
	FloodConns int      // default 128
	Rounds     int      // default 2
}

// CompareReport is what a comparison measured: the normal clients' figures per phase
// kind ("alone" or the flooded path) over all rounds, and what each flood got.
type CompareReport struct {
	BaseURL    string
	Workers    int
	ClientRate float64
	FloodConns int
	Rounds     int
	Alone      Phase
	Flooded    []Phase       // in Targets order; Name is the target
	Floods     []AttackStats // in Targets order; Kind is the target
}

// RunCompare discovers keys, then runs the rounds.
func RunCompare(ctx context.Context, cfg CompareConfig) (*CompareReport, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	client, routes, err := cfg.discoverRoutes(ctx)
	if err != nil {
		return nil, err
	}
	defer client.close()
	alone := []sample{}
	flooded := make([][]sample, len(cfg.Targets))
	floods := make([]AttackStats, len(cfg.Targets))
	start := time.Now()
	for round := range cfg.Rounds {
		cfg.progress("round %d: %d clients alone for %s", round+1, cfg.Workers, cfg.Duration)
		alone = append(alone, runSamples(ctx, client, cfg.BaseURL, routes, cfg.Workers, cfg.Duration, cfg.Seed+int64(round))...)
		for _, i := range roundOrder(len(cfg.Targets), round) {
			cfg.progress("round %d: %d clients beside a flood of %s (%d connections)", round+1, cfg.Workers,
				cfg.Targets[i], cfg.FloodConns)
			got, st := cfg.floodPhase(ctx, client, routes, cfg.Targets[i], cfg.Seed+int64(round*31+i))
			flooded[i] = append(flooded[i], got...)
			floods[i] = mergeAttack(floods[i], st, cfg.Targets[i])
		}
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	per := cfg.Duration * time.Duration(cfg.Rounds)
	rep := &CompareReport{BaseURL: cfg.BaseURL, Workers: cfg.Workers, ClientRate: cfg.ClientRate,
		FloodConns: cfg.FloodConns, Rounds: cfg.Rounds, Alone: phaseOf("alone", routes, alone, per), Floods: floods}
	for i, t := range cfg.Targets {
		rep.Flooded = append(rep.Flooded, phaseOf(t, routes, flooded[i], per))
	}
	cfg.progress("done in %s", time.Since(start).Round(time.Second))
	return rep, nil
}

func (cfg *CompareConfig) check() error {
	if cfg.Duration <= 0 || cfg.Workers <= 0 || len(cfg.Targets) == 0 {
		return fmt.Errorf("flood comparison: duration %s, %d clients, targets %v: want all set",
			cfg.Duration, cfg.Workers, cfg.Targets)
	}
	for _, t := range cfg.Targets {
		if !strings.HasPrefix(t, "/") {
			return fmt.Errorf("flood target %q: want a path starting with /", t)
		}
	}
	cfg.FloodConns = cmpPositive(cfg.FloodConns, 128)
	cfg.Rounds = cmpPositive(cfg.Rounds, 2)
	cfg.MaxMessages = cmpPositive(cfg.MaxMessages, 300)
	cfg.BaseURL = strings.TrimSuffix(cfg.BaseURL, "/")
	if cfg.DistinctClients {
		return canBind(cfg.BaseURL)
	}
	return nil
}

func cmpPositive(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// discoverRoutes makes the clients of cfg's Workers and the route mix of the keys
// discovered from BaseURL.
func (cfg *Config) discoverRoutes(ctx context.Context) (*clients, []Route, error) {
	client := newClients(*cfg, cfg.Workers)
	ids, err := Discover(ctx, client.shared, cfg.BaseURL, cfg.MaxMessages)
	if err != nil {
		client.close()
		return nil, nil, fmt.Errorf("discover keys: %w", err)
	}
	return client, Mix(ids), nil
}

func (cfg *Config) progress(format string, args ...any) {
	if cfg.Progress != nil {
		fmt.Fprintf(cfg.Progress, format+"\n", args...)
	}
}

// roundOrder is the targets' order in round: as given in even rounds, reversed in odd.
func roundOrder(n, round int) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if round%2 == 1 {
		slices.Reverse(order)
	}
	return order
}

// floodPhase runs the normal clients for one phase beside a flood of target.
func (cfg *CompareConfig) floodPhase(ctx context.Context, c *clients, routes []Route, target string,
	seed int64) ([]sample, AttackStats) {
	fctx, stop := context.WithCancel(ctx)
	a := &attacks{stats: map[string]*AttackStats{}, close: map[string][]time.Duration{}}
	from := ""
	if cfg.DistinctClients {
		from = floodAddr
	}
	fixed := []Route{{Name: target, Weight: 1, Path: func(*rand.Rand) string { return target }}}
	startFlood(fctx, a, cfg.BaseURL, Attack{Flood: cfg.FloodConns}, fixed, from, seed)
	got := runSamples(ctx, c, cfg.BaseURL, routes, cfg.Workers, cfg.Duration, seed)
	stop()
	stats := a.wait()
	if len(stats) == 0 {
		return got, AttackStats{Kind: target, Outcomes: map[string]int{}}
	}
	return got, stats[0]
}

// mergeAttack adds b's counts to a, naming the sum kind.
func mergeAttack(a, b AttackStats, kind string) AttackStats {
	out := AttackStats{Kind: kind, Attempts: a.Attempts + b.Attempts, FiveXX: a.FiveXX + b.FiveXX,
		Outcomes: maps.Clone(a.Outcomes)}
	if out.Outcomes == nil {
		out.Outcomes = map[string]int{}
	}
	for k, v := range b.Outcomes {
		out.Outcomes[k] += v
	}
	return out
}

// FiveXX counts the 5xx answers the normal clients got.
func (r *CompareReport) FiveXX() int {
	n := r.Alone.Total.S5xx
	for _, p := range r.Flooded {
		n += p.Total.S5xx
	}
	return n
}

// WriteText prints the normal clients' figures per phase kind, the ratios of their
// p99 to the p99 alone, and what each flood got.
func (r *CompareReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "API %s: %d clients of at most %g req/s each, alone and beside a flood of one path from one client "+
		"(%d keep-alive connections, no pause); %d rounds, figures over all of them. Latency in ms.\n\n",
		r.BaseURL, r.Workers, r.ClientRate, r.FloodConns, r.Rounds)
	fmt.Fprintln(w, "| normal clients | req/s | p50 | p99 | p999 | p99 × alone | 4xx | 5xx | errors |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, p := range append([]Phase{r.Alone}, r.Flooded...) {
		t := p.Total
		fmt.Fprintf(w, "| %s | %.0f | %s | %s | %s | %.2f | %d | %d | %d |\n", phaseLabel(p.Name), t.PerSec,
			ms(t.P50), ms(t.P99), ms(t.P999), ratio(t.P99, r.Alone.Total.P99), t.S4xx, t.S5xx, t.Errors)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| flood of | requests | req/s | outcomes |")
	fmt.Fprintln(w, "|---|---:|---:|---|")
	for i, f := range r.Floods {
		fmt.Fprintf(w, "| %s | %d | %.0f | %s |\n", f.Kind, f.Attempts,
			float64(f.Attempts)/max(r.Flooded[i].Elapsed.Seconds(), 1e-9), outcomeList(f.Outcomes))
	}
	fmt.Fprintln(w)
	var parts []string
	for _, p := range r.Flooded {
		parts = append(parts, fmt.Sprintf("×%.2f beside a flood of %s", ratio(p.Total.P99, r.Alone.Total.P99), p.Name))
	}
	fmt.Fprintf(w, "Normal clients' p99: %s ms alone; %s. 5xx to normal clients: %d.\n",
		ms(r.Alone.Total.P99), strings.Join(parts, ", "), r.FiveXX())
}

func phaseLabel(name string) string {
	if name == "alone" {
		return "alone"
	}
	return "beside a flood of " + name
}

func ratio(a, b time.Duration) float64 { return float64(a) / max(float64(b), 1) }
