package benchscale

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stardust-indexer/stardust-indexer/internal/promtext"
)

// snapshot is what the indexer reported at one moment: from its /metrics (the series of
// ingest/metrics.go) and, for memory, from /proc.
type snapshot struct {
	at         time.Time
	milestone  float64             // indexer_last_milestone
	rows       float64             // indexer_rows_total, every table
	buckets    map[float64]float64 // indexer_write_seconds{stage="milestone"}: le -> cumulative count
	rssBytes   int64
	writeCount float64 // indexer_write_seconds_count{stage="milestone"}
}

// scrape reads the indexer's /metrics.
func scrape(ctx context.Context, c *http.Client, url string) (snapshot, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return snapshot{}, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return snapshot{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return snapshot{}, fmt.Errorf("%s: %s", url, resp.Status)
	}
	s, err := parseMetrics(resp.Body)
	s.at = time.Now()
	return s, err
}

// parseMetrics reads the few series the benchmark needs from the Prometheus text format.
func parseMetrics(r io.Reader) (snapshot, error) {
	s := snapshot{buckets: map[float64]float64{}}
	all, err := promtext.Parse(r)
	if err != nil {
		return s, err
	}
	for _, m := range all {
		switch {
		case m.Name == "indexer_last_milestone":
			s.milestone = m.Value
		case m.Name == "indexer_rows_total":
			s.rows += m.Value
		case m.Name == "indexer_write_seconds_bucket" && m.Labels["stage"] == "milestone":
			le, err := strconv.ParseFloat(m.Labels["le"], 64)
			if err != nil {
				return s, fmt.Errorf("bucket le %q: %w", m.Labels["le"], err)
			}
			s.buckets[le] = m.Value
		case m.Name == "indexer_write_seconds_count" && m.Labels["stage"] == "milestone":
			s.writeCount = m.Value
		}
	}
	return s, nil
}

// intervalQuantile is quantile q of the milestones written between two snapshots of one
// process: the difference of their cumulative histograms, interpolated within a bucket.
func intervalQuantile(from, to snapshot, q float64) time.Duration {
	bounds := make([]float64, 0, len(to.buckets))
	for le := range to.buckets {
		bounds = append(bounds, le)
	}
	slices.Sort(bounds)
	total := to.writeCount - from.writeCount
	if total <= 0 {
		return 0
	}
	rank := q * total
	lower, below := 0.0, 0.0
	for _, le := range bounds {
		cum := to.buckets[le] - from.buckets[le]
		if cum >= rank && cum > below {
			if math.IsInf(le, 1) { // past the last finite bucket: say its bound
				return seconds(lower)
			}
			return seconds(lower + (le-lower)*(rank-below)/(cum-below))
		}
		lower, below = le, cum
	}
	return seconds(lower)
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// rss is a process's resident set size, from /proc/<pid>/status (VmRSS).
func rss(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("/proc/%d/status: no VmRSS", pid)
}
