package ingest

import (
	"log/slog"
	"sync"
	"time"
)

// progress logs a backfill's advance every few seconds: done/total, rate and ETA.
type progress struct {
	mu     sync.Mutex
	log    *slog.Logger
	total  int
	count  int
	start  time.Time
	last   time.Time
	period time.Duration
}

func newProgress(log *slog.Logger, total int) *progress {
	now := time.Now()
	return &progress{log: log, total: total, start: now, last: now, period: 5 * time.Second}
}

func (p *progress) step() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.count++
	if time.Since(p.last) >= p.period {
		p.last = time.Now()
		p.report("backfill")
	}
}

func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.total == 0: // following the tip
	case p.count >= p.total:
		p.report("backfill complete")
	case p.count > 0:
		p.report("backfill pass done; other nodes hold the rest")
	}
}

func (p *progress) report(msg string) {
	elapsed := time.Since(p.start)
	rate := float64(p.count) / max(elapsed.Seconds(), 1e-9)
	eta := time.Duration(0)
	if rate > 0 && p.total > p.count {
		eta = time.Duration(float64(p.total-p.count) / rate * float64(time.Second))
	}
	p.log.Info(msg, "done", p.count, "total", p.total,
		"percent", int(100*float64(p.count)/float64(max(p.total, 1))),
		"milestones_per_s", int(rate), "eta", eta.Round(time.Second))
}
