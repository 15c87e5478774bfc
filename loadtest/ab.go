package loadtest

import (
	"context"
	"fmt"
	"io"
	"time"
)

// ABConfig compares two APIs that serve the same keyspace, such as a build of the
// commit before a change (BaseURL) and one after it (OtherURL): the same closed-loop
// clients (Config's Workers) send the same draws of the route mix to one, then the
// other, for Config.Duration each, in Rounds rounds whose order alternates (A B, B A,
// ...), so a change in the machine's load weighs on both alike.
type ABConfig struct {
	Config
	OtherURL string
	Rounds   int
}

// ABReport holds each API's figures over all rounds, route by route.
type ABReport struct {
	BaseURL, OtherURL string
	Workers, Rounds   int
	Slice             time.Duration
	A, B              Phase
}

// RunAB discovers keys from BaseURL, then runs the rounds.
func RunAB(ctx context.Context, cfg ABConfig) (*ABReport, error) {
	if cfg.Workers < 1 || cfg.Rounds < 1 || cfg.Duration <= 0 || cfg.OtherURL == "" {
		return nil, fmt.Errorf("ab: want workers, rounds and a duration above 0 and a second URL (got %d, %d, %s, %q)",
			cfg.Workers, cfg.Rounds, cfg.Duration, cfg.OtherURL)
	}
	cfg.ClientRate = 0
	client, routes, err := cfg.discoverRoutes(ctx)
	if err != nil {
		return nil, err
	}
	defer client.close()
	urls := [2]string{cfg.BaseURL, cfg.OtherURL}
	var got [2][]sample
	for round := range cfg.Rounds {
		for _, i := range abOrder(round) {
			cfg.progress("round %d: %d clients on %s for %s", round+1, cfg.Workers, urls[i], cfg.Duration)
			got[i] = append(got[i], runSamples(ctx, client, urls[i], routes, cfg.Workers, cfg.Duration, cfg.Seed+int64(round))...)
		}
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	per := cfg.Duration * time.Duration(cfg.Rounds)
	return &ABReport{BaseURL: cfg.BaseURL, OtherURL: cfg.OtherURL, Workers: cfg.Workers, Rounds: cfg.Rounds,
		Slice: cfg.Duration, A: phaseOf(cfg.BaseURL, routes, got[0], per), B: phaseOf(cfg.OtherURL, routes, got[1], per)}, nil
}

// abOrder is the order of the two APIs in a round: A first in even rounds, B in odd ones.
func abOrder(round int) [2]int {
	if round%2 == 1 {
		return [2]int{1, 0}
	}
	return [2]int{0, 1}
}

// FiveXX counts the 5xx answers of both APIs.
func (r *ABReport) FiveXX() int { return r.A.Total.S5xx + r.B.Total.S5xx }

// WriteText prints each route's p50 and p99 on both APIs and B ÷ A as a Markdown table.
func (r *ABReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "A %s, B %s: %d closed-loop clients, %d rounds of %s on each (A B, then B A, ...)\n\n",
		r.BaseURL, r.OtherURL, r.Workers, r.Rounds, r.Slice)
	fmt.Fprintln(w, "| route | requests A / B | p50 A | p50 B | p50 B÷A | p99 A | p99 B | p99 B÷A |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|")
	rows := func(p Phase) []RouteStats { return append(append([]RouteStats(nil), p.Routes...), p.Total) }
	a, b := rows(r.A), rows(r.B)
	for i := range a {
		fmt.Fprintf(w, "| %s | %d / %d | %s | %s | %s | %s | %s | %s |\n", a[i].Route, a[i].Requests, b[i].Requests,
			ms(a[i].P50), ms(b[i].P50), durationRatio(b[i].P50, a[i].P50), ms(a[i].P99), ms(b[i].P99),
			durationRatio(b[i].P99, a[i].P99))
	}
}

// durationRatio is a ÷ b to two decimals ("-" when b is zero).
func durationRatio(a, b time.Duration) string {
	if b <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}
