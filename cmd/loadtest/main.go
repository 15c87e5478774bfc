// Command loadtest puts a running API under a bounded loopback load and reports
// per-route throughput, p50/p99 and status classes, with the normal clients' figures
// without and with slow and oversized clients side by side (package loadtest).
//
//	loadtest [-url http://127.0.0.1:8080] [-duration 60s] [-workers 0] ...
//
// -duration is the whole run: half with the normal clients alone, half with the
// attackers beside them, a flood from one client among them. Each normal client sends
// at most -client-rate requests a second (under the API's default per-client rate) from
// a loopback address of its own (-distinct-clients), so the API's per-client limits
// answer the flooder and not them. With -workers 0 the client count is found first by a short
// probe (not counted in -duration).
//
// With -rate N it runs open loop instead: N requests a second of the same route mix for
// the whole -duration, each sent on its schedule whatever the answers do, spread
// round-robin over -clients clients (each from its own loopback address), with
// latency measured from the scheduled send time (p50/p99/p999 per route), no attackers.
//
// With -flood-compare PATHS it compares floods instead: -workers paced normal clients
// (default 16) run a phase alone, then one beside a flood of each path from one client
// with -flood-conns keep-alive connections, in -rounds rounds; -duration is split evenly
// over the phases. The report gives the normal clients' p99 beside each flood as a
// multiple of their p99 alone.
//
// With -cache-rounds N it measures caching instead: N requests drawn from the route mix,
// one at a time, each sent once (the share whose answers carry Cache-Control immutable),
// then, when it has an ETag, sent again plain and with If-None-Match, timed side by side
// (p50 of the 200s and of the 304s; docs/caching.md).
//
// It exits 1 when any answer was a 5xx (or a normal request got no answer, or an
// open-loop request could not be sent), 2 when the run could not be made.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/stardust-indexer/stardust-indexer/loadtest"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	def := os.Getenv("API_URL")
	if def == "" {
		def = "http://127.0.0.1:8080"
	}
	var (
		cfg         loadtest.Config
		duration    time.Duration
		out         string
		wait        time.Duration
		openRate    float64
		clients     int
		compare     loadtest.CompareConfig
		targets     string
		cacheRounds int
		abURL       string
	)
	fs.StringVar(&cfg.BaseURL, "url", def, "API base URL, on this machine (default $API_URL or http://127.0.0.1:8080)")
	fs.DurationVar(&duration, "duration", 60*time.Second, "the whole run: half without attackers, half with them")
	fs.IntVar(&cfg.Workers, "workers", 0, "normal closed-loop clients (0: probe for the count with the best throughput)")
	fs.DurationVar(&cfg.ProbeTime, "probe", 2*time.Second, "time per step of the probe (-workers 0)")
	fs.IntVar(&cfg.Attack.SlowHeaders, "slow-headers", 16, "connections sending headers a byte at a time")
	fs.IntVar(&cfg.Attack.SlowBodies, "slow-bodies", 4, "requests sending a 1 MiB body a byte at a time")
	fs.IntVar(&cfg.Attack.SlowReaders, "slow-readers", 2, "connections reading pipelined answers a byte at a time")
	fs.IntVar(&cfg.Attack.Oversized, "oversized", 2, "clients sending oversized and greedy requests")
	fs.IntVar(&cfg.Attack.Flood, "flood", 32, "connections of one client sending the route mix without pause (0: no flood)")
	fs.Float64Var(&cfg.ClientRate, "client-rate", 40, "requests per second of each normal client, under the API's "+
		"per-client -rate (0: closed loop, as fast as answers come)")
	fs.BoolVar(&cfg.DistinctClients, "distinct-clients", true, "each normal client and the flooder connect from a "+
		"loopback address of their own (127.0.1.x, 127.0.2.1; Linux), so the API's per-client limits tell them apart")
	fs.DurationVar(&cfg.Attack.Trickle, "trickle", 250*time.Millisecond, "pause between two bytes of a slow client")
	fs.IntVar(&cfg.MaxMessages, "max-messages", 300, "messages to discover keys from")
	fs.Int64Var(&cfg.Seed, "seed", 1, "seed of the route and key choices")
	fs.Float64Var(&openRate, "rate", 0, "open loop: requests per second in all, on a fixed schedule, for the whole "+
		"-duration (0: the closed-loop run with attackers)")
	fs.IntVar(&clients, "clients", 64, "open loop: clients the schedule is spread over (each within the API's per-client rate)")
	fs.StringVar(&targets, "flood-compare", "", "comma-separated paths: compare what a flood of each costs the "+
		"normal clients (e.g. /health,/api/core/v2/info; empty: off)")
	fs.IntVar(&compare.FloodConns, "flood-conns", 128, "-flood-compare: keep-alive connections of the flooder")
	fs.IntVar(&compare.Rounds, "rounds", 2, "-flood-compare and -ab: rounds of phases (-flood-compare: alone, then each flood; -ab: A and B)")
	fs.IntVar(&cacheRounds, "cache-rounds", 0, "measure caching instead: requests drawn from the mix, each replayed "+
		"plain and with If-None-Match (0: no)")
	fs.StringVar(&abURL, "ab", "", "compare two APIs on the same keyspace instead: this one (B) against -url (A), "+
		"-workers closed-loop clients (default 1) on each in turn for -rounds rounds within -duration")
	fs.StringVar(&out, "out", "", "also write the report to this file")
	fs.DurationVar(&wait, "wait", 30*time.Second, "wait this long for the API to answer GET /sync")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if duration < 2*time.Second {
		fmt.Fprintf(stderr, "-duration %s: want at least 2s\n", duration)
		return 2
	}
	if !loopback(cfg.BaseURL) {
		fmt.Fprintf(stderr, "-url %s: want http:// to this machine (localhost, 127.0.0.0/8, [::1]): load goes nowhere else\n", cfg.BaseURL)
		return 2
	}
	cfg.Duration = duration / 2
	cfg.Progress = stderr
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := waitUp(ctx, cfg.BaseURL, wait); err != nil {
		fmt.Fprintf(stderr, "loadtest: %v\n", err)
		return 2
	}
	if targets != "" {
		compare.Config, compare.Targets = cfg, strings.Split(targets, ",")
		return runCompare(ctx, compare, duration, out, stdout, stderr)
	}
	if abURL != "" {
		return runAB(ctx, loadtest.ABConfig{Config: cfg, OtherURL: abURL, Rounds: max(compare.Rounds, 1)}, duration,
			out, stdout, stderr)
	}
	if cacheRounds > 0 {
		rep, err := loadtest.RunCache(ctx, loadtest.CacheConfig{BaseURL: cfg.BaseURL, Rounds: cacheRounds, Seed: cfg.Seed,
			MaxMessages: cfg.MaxMessages, Progress: stderr, DistinctClients: cfg.DistinctClients})
		return finish(rep, err, out, stdout, stderr, func(rep *loadtest.CacheReport) string {
			if n := rep.Total.FiveXX; n > 0 {
				return fmt.Sprintf("%d answers were 5xx", n)
			}
			return ""
		})
	}
	if openRate > 0 {
		return runOpen(ctx, loadtest.OpenConfig{BaseURL: cfg.BaseURL, Rate: openRate, Duration: duration,
			Clients: clients, DistinctClients: cfg.DistinctClients, Seed: cfg.Seed, MaxMessages: cfg.MaxMessages,
			Progress: stderr}, out, stdout, stderr)
	}
	rep, err := loadtest.Run(ctx, cfg)
	return finish(rep, err, out, stdout, stderr, func(rep *loadtest.Report) string {
		errs := rep.Clean.Total.Errors + rep.Attacked.Total.Errors
		if n := rep.FiveXX(); n > 0 || errs > 0 {
			return fmt.Sprintf("%d answers were 5xx, %d normal requests got no answer", n, errs)
		}
		return ""
	})
}

// runOpen runs and reports an open-loop load (-rate).
func runOpen(ctx context.Context, cfg loadtest.OpenConfig, out string, stdout, stderr io.Writer) int {
	rep, err := loadtest.RunOpen(ctx, cfg)
	return finish(rep, err, out, stdout, stderr, func(rep *loadtest.OpenReport) string {
		if t := rep.Phase.Total; rep.Failed() {
			return fmt.Sprintf("%d answers were 5xx, %d requests got no answer, %d were not sent", t.S5xx, t.Errors, rep.Skipped)
		}
		return ""
	})
}

// runAB runs and reports a comparison of two APIs (-ab).
func runAB(ctx context.Context, cfg loadtest.ABConfig, whole time.Duration, out string, stdout, stderr io.Writer) int {
	cfg.Workers = max(cfg.Workers, 1)
	cfg.Duration = whole / time.Duration(2*cfg.Rounds)
	rep, err := loadtest.RunAB(ctx, cfg)
	return finish(rep, err, out, stdout, stderr, func(rep *loadtest.ABReport) string {
		if n := rep.FiveXX(); n > 0 {
			return fmt.Sprintf("%d answers were 5xx", n)
		}
		return ""
	})
}

// runCompare runs and reports a flood comparison (-flood-compare).
func runCompare(ctx context.Context, cfg loadtest.CompareConfig, whole time.Duration, out string, stdout, stderr io.Writer) int {
	if cfg.Workers <= 0 {
		cfg.Workers = 16
	}
	cfg.Rounds = max(cfg.Rounds, 1)
	cfg.Duration = whole / time.Duration(cfg.Rounds*(1+len(cfg.Targets)))
	rep, err := loadtest.RunCompare(ctx, cfg)
	return finish(rep, err, out, stdout, stderr, func(rep *loadtest.CompareReport) string {
		if n := rep.FiveXX(); n > 0 {
			return fmt.Sprintf("%d answers to normal clients were 5xx", n)
		}
		return ""
	})
}

// finish reports a run and returns the exit status: 2 when the run could not be made
// (err) or reported, 1 when failure names what went wrong in it, else 0.
func finish[R interface{ WriteText(io.Writer) }](rep R, err error, out string, stdout, stderr io.Writer,
	failure func(R) string) int {
	if err == nil {
		err = report(rep, out, stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "loadtest: %v\n", err)
		return 2
	}
	if msg := failure(rep); msg != "" {
		fmt.Fprintf(stderr, "FAIL: %s\n", msg)
		return 1
	}
	return 0
}

// report prints a report's tables and, when out is set, saves them there too.
func report(rep interface{ WriteText(io.Writer) }, out string, stdout io.Writer) error {
	var b strings.Builder
	rep.WriteText(&b)
	fmt.Fprint(stdout, b.String())
	if out == "" {
		return nil
	}
	return os.WriteFile(out, []byte(b.String()), 0o644)
}

// waitUp polls GET /sync until it answers 200.
func waitUp(ctx context.Context, base string, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	c := &http.Client{Timeout: 5 * time.Second}
	for {
		resp, err := c.Get(strings.TrimSuffix(base, "/") + "/sync")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			err = fmt.Errorf("status %d", resp.StatusCode)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s/sync did not answer within %s: %w", base, wait, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// loopback: this tool sends load only to the machine it runs on.
func loopback(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "http" {
		return false
	}
	if strings.EqualFold(u.Hostname(), "localhost") {
		return true
	}
	ip := net.ParseIP(u.Hostname())
	return ip != nil && ip.IsLoopback()
}
