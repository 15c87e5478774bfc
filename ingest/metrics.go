package ingest

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the ingest pipeline's Prometheus series (docs/operations.md explains each).
type Metrics struct {
	Milestones     prometheus.Counter
	Rows           *prometheus.CounterVec   // by table
	WriteSeconds   *prometheus.HistogramVec // by stage: milestone (all writes), sync
	Errors         *prometheus.CounterVec   // by kind: validation, database, source
	Retries        prometheus.Counter
	LastMilestone  prometheus.Gauge
	Lag            prometheus.Gauge
	Paused         prometheus.Gauge
	Unreferenced   prometheus.Counter
	SourceFetchSec prometheus.Histogram
	VerifySec      prometheus.Histogram
	Claims         *prometheus.CounterVec // block claims by result
	WriteLimit     prometheus.Gauge       // the write limiter's current limit
	Unavailable    prometheus.Gauge       // milestones recorded as not held by the source
	ReadProbeSec   prometheus.Histogram   // the read guard's probes
	ReadCap        prometheus.Gauge       // the read guard's cap on the write limit
	HintsKnown     prometheus.Gauge       // the hints the hint writer remembers as written
}

// NewMetrics creates the series and registers them on reg (nil: not registered).
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		Milestones: prometheus.NewCounter(prometheus.CounterOpts{Name: "indexer_milestones_total",
			Help: "Milestones fully written (sync row included)."}),
		Rows: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "indexer_rows_total",
			Help: "Rows written, by table."}, []string{"table"}),
		WriteSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "indexer_write_seconds",
			Help: "Write latency: a whole milestone, or one sync row.", Buckets: prometheus.ExponentialBuckets(0.0005, 2, 16)},
			[]string{"stage"}),
		Errors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "indexer_errors_total",
			Help: "Errors by kind: validation (bad source record), database, source."}, []string{"kind"}),
		Retries: prometheus.NewCounter(prometheus.CounterOpts{Name: "indexer_cql_retries_total",
			Help: "Retried CQL statements (timeouts, unavailable, overloaded)."}),
		LastMilestone: prometheus.NewGauge(prometheus.GaugeOpts{Name: "indexer_last_milestone",
			Help: "Newest milestone fully written."}),
		Lag: prometheus.NewGauge(prometheus.GaugeOpts{Name: "indexer_lag_milestones",
			Help: "Source tip minus newest milestone written."}),
		Paused: prometheus.NewGauge(prometheus.GaugeOpts{Name: "indexer_paused",
			Help: "1 while ingest waits for the database to come back."}),
		Unreferenced: prometheus.NewCounter(prometheus.CounterOpts{Name: "indexer_unreferenced_messages_total",
			Help: "Unreferenced messages written to the pending partition."}),
		SourceFetchSec: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "indexer_source_fetch_seconds",
			Help: "Time to fetch one milestone from the source.", Buckets: prometheus.ExponentialBuckets(0.0001, 2, 16)}),
		VerifySec: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "indexer_verify_seconds",
			Help:    "Time to verify one milestone (signatures, cone, Merkle roots, ledger) before writing it.",
			Buckets: prometheus.ExponentialBuckets(0.0001, 2, 16)}),
		Claims: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "indexer_block_claims_total",
			Help: "Claims of a block of milestones: taken, held_elsewhere (another node writes it), lost, error."},
			[]string{"result"}),
		WriteLimit: prometheus.NewGauge(prometheus.GaugeOpts{Name: "indexer_write_limit",
			Help: "Write groups (statements or single-partition batches) the pipeline keeps in flight now, " +
				"over all milestones in flight: the adaptive limiter's current limit."}),
		Unavailable: prometheus.NewGauge(prometheus.GaugeOpts{Name: "indexer_unavailable_milestones",
			Help: "Milestones the source no longer holds (a pruned node), skipped and retried slowly; " +
				"indexer import of an archive fills them."}),
		ReadProbeSec: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "indexer_read_probe_seconds",
			Help:    "Latency of the read guard's probe: one small read of the database, tried once (a failure counts as 1 s).",
			Buckets: prometheus.ExponentialBuckets(0.0001, 2, 15)}),
		ReadCap: prometheus.NewGauge(prometheus.GaugeOpts{Name: "indexer_read_guard_cap",
			Help: "The read guard's cap on the write limit: at the session's in-flight cap it does not bind; " +
				"lower, reads of the database were slow and writes gave way."}),
		HintsKnown: prometheus.NewGauge(prometheus.GaugeOpts{Name: "indexer_hints_known",
			Help: fmt.Sprintf("Partition hints the pipeline remembers as written, and so does not write again: "+
				"rises with the addresses and tags the chain names, then cycles between one generation and two "+
				"(%d to %d).", hintsKept, 2*hintsKept)}),
	}
	if reg != nil {
		reg.MustRegister(m.Milestones, m.Rows, m.WriteSeconds, m.Errors, m.Retries, m.LastMilestone, m.Lag,
			m.Paused, m.Unreferenced, m.SourceFetchSec, m.VerifySec, m.Claims, m.WriteLimit,
			m.Unavailable, m.ReadProbeSec, m.ReadCap, m.HintsKnown)
	}
	return m
}
