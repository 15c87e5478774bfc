package bootstrap

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the bootstrap's Prometheus series.
type Metrics struct {
	Outputs *prometheus.GaugeVec   // by pass: outputs the pass reached
	Total   prometheus.Gauge       // outputs in the full file
	Rows    *prometheus.CounterVec // rows written, by table
	Pass    prometheus.Gauge       // 1 validate, 2 check, 3 write, 4 done
	written atomic.Int64           // rows written, over every table
}

// RowsWritten is the rows written so far, over every table.
func (m *Metrics) RowsWritten() int64 { return m.written.Load() }

// addRows counts n rows written to table.
func (m *Metrics) addRows(table string, n int) {
	m.Rows.WithLabelValues(table).Add(float64(n))
	m.written.Add(int64(n))
}

// NewMetrics creates the series and registers them on reg (nil: not registered).
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		Outputs: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "indexer_bootstrap_outputs",
			Help: "Outputs of the full snapshot file a pass reached: validate, check, write."}, []string{"pass"}),
		Total: prometheus.NewGauge(prometheus.GaugeOpts{Name: "indexer_bootstrap_outputs_in_file",
			Help: "Outputs the full snapshot file holds."}),
		Rows: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "indexer_bootstrap_rows_total",
			Help: "Rows a bootstrap wrote, by table."}, []string{"table"}),
		Pass: prometheus.NewGauge(prometheus.GaugeOpts{Name: "indexer_bootstrap_pass",
			Help: "The bootstrap's pass: 1 validate, 2 check, 3 write, 4 done."}),
	}
	if reg != nil {
		reg.MustRegister(m.Outputs, m.Total, m.Rows, m.Pass)
	}
	return m
}

// passNames are the passes over the full file, in order.
var passNames = [...]string{"validate", "check", "write"}

// progress reports a pass's advance on the log every period (outputs/s, percent, ETA)
// and in the metrics at every step.
type progress struct {
	mu     sync.Mutex
	log    *slog.Logger
	m      *Metrics
	pass   int
	total  uint64
	done   uint64
	from   uint64 // where the pass started (a resumed write pass)
	start  time.Time
	last   time.Time
	period time.Duration
}

func newProgress(log *slog.Logger, m *Metrics, total uint64, period time.Duration) *progress {
	m.Total.Set(float64(total))
	return &progress{log: log, m: m, total: total, period: period}
}

// begin starts pass (1-3) at from outputs.
func (p *progress) begin(pass int, from uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pass, p.done, p.from, p.start, p.last = pass, from, from, time.Now(), time.Now()
	p.m.Pass.Set(float64(pass))
}

// step records that the pass reached n outputs; it fails once ctx is done.
func (p *progress) step(ctx context.Context, n uint64) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = max(p.done, n)
	p.m.Outputs.WithLabelValues(passNames[p.pass-1]).Set(float64(p.done))
	if time.Since(p.last) >= p.period {
		p.last = time.Now()
		p.reportLocked("bootstrap")
	}
	return ctx.Err()
}

// end reports the pass's figures.
func (p *progress) end() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reportLocked("bootstrap pass done")
}

func (p *progress) reportLocked(msg string) {
	elapsed := time.Since(p.start)
	rate := float64(p.done-p.from) / max(elapsed.Seconds(), 1e-9)
	var eta time.Duration
	if rate > 0 && p.total > p.done {
		eta = time.Duration(float64(p.total-p.done) / rate * float64(time.Second))
	}
	p.log.Info(msg, "pass", passNames[p.pass-1], "outputs", p.done, "of", p.total,
		"percent", int(100*float64(p.done)/float64(max(p.total, 1))), "outputs_per_s", int(rate),
		"eta", eta.Round(time.Second), "elapsed", elapsed.Round(time.Millisecond))
}
