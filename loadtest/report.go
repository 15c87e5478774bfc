package loadtest

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"
)

func ms(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d)/float64(time.Millisecond)) }

// WriteText prints the report as Markdown tables: per route, the normal clients'
// figures without and with the attackers side by side, then what each attack got.
func (r *Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "API %s, keys: %s\n\n", r.BaseURL, r.IDs)
	if len(r.Probe) > 0 {
		var steps []string
		for _, s := range r.Probe {
			steps = append(steps, fmt.Sprintf("%d: %.0f req/s (p99 %s ms)", s.Workers, s.PerSec, ms(s.P99)))
		}
		fmt.Fprintf(w, "Probe (clients: throughput): %s -> %d clients.\n\n", strings.Join(steps, ", "), r.Workers)
	}
	kind := "closed-loop clients"
	if r.ClientRate > 0 {
		kind = fmt.Sprintf("clients of at most %g req/s each", r.ClientRate)
	}
	fmt.Fprintf(w, "%d %s; phase 1 without attackers (%s), phase 2 with them (%s). Latency in ms.\n\n",
		r.Workers, kind, r.Clean.Elapsed.Round(time.Millisecond), r.Attacked.Elapsed.Round(time.Millisecond))
	fmt.Fprintln(w, "| route | req/s | p50 | p99 | req/s (attacked) | p50 (attacked) | p99 (attacked) | 4xx | 5xx | errors | unexpected |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	rows := append(slices.Clone(r.Clean.Routes), r.Clean.Total)
	attacked := append(slices.Clone(r.Attacked.Routes), r.Attacked.Total)
	for i, a := range rows {
		b := attacked[i]
		name := a.Route
		if i == len(rows)-1 {
			name = "**" + name + "**"
		}
		fmt.Fprintf(w, "| %s | %.0f | %s | %s | %.0f | %s | %s | %d | %d | %d | %d |\n", name,
			a.PerSec, ms(a.P50), ms(a.P99), b.PerSec, ms(b.P50), ms(b.P99),
			a.S4xx+b.S4xx, a.S5xx+b.S5xx, a.Errors+b.Errors, a.Unexpected+b.Unexpected)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| attack | attempts | outcomes | 5xx | median time to close |")
	fmt.Fprintln(w, "|---|---:|---|---:|---:|")
	for _, a := range r.Attacks {
		closed := "-"
		if a.Closed > 0 {
			closed = a.Closed.Round(100 * time.Millisecond).String()
		}
		fmt.Fprintf(w, "| %s | %d | %s | %d | %s |\n", a.Kind, a.Attempts, outcomeList(a.Outcomes), a.FiveXX, closed)
	}
	fmt.Fprintln(w)
	r.writeFlood(w)
	c, t := r.Clean.Total, r.Attacked.Total
	fmt.Fprintf(w, "Normal clients: %.0f req/s, p50 %s ms, p99 %s ms without attackers; %.0f req/s, p50 %s ms, p99 %s ms with them. "+
		"5xx: %d.\n", c.PerSec, ms(c.P50), ms(c.P99), t.PerSec, ms(t.P50), ms(t.P99), r.FiveXX())
}

// outcomeList is "outcome: count, ..." in the outcomes' order.
func outcomeList(outcomes map[string]int) string {
	var outs []string
	for _, k := range slices.Sorted(maps.Keys(outcomes)) {
		outs = append(outs, fmt.Sprintf("%s: %d", k, outcomes[k]))
	}
	return strings.Join(outs, ", ")
}

// writeFlood sums up what the flooding client got, when one ran.
func (r *Report) writeFlood(w io.Writer) {
	for _, a := range r.Attacks {
		if !strings.HasPrefix(a.Kind, "flood from one client") {
			continue
		}
		limited := a.Outcomes["429"] + a.Outcomes[OutcomeNoRetryAfter]
		fmt.Fprintf(w, "Flood: %d requests from one client, %d (%.1f%%) answered 429 (%d without Retry-After), %d served.\n\n",
			a.Attempts, limited, 100*float64(limited)/float64(max(a.Attempts, 1)), a.Outcomes[OutcomeNoRetryAfter],
			a.Attempts-limited)
	}
}
