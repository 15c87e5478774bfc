package main

import (
	"github.com/prometheus/client_golang/prometheus"
)

// analyticsErrors counts the failures of the analytics jobs by job: "fold" (the ledger
// families' fold), "daily" (a date's daily analytics), "ledger" (the ledger analytics).
type analyticsErrors struct{ c *prometheus.CounterVec }

// newAnalyticsErrors creates indexer_analytics_errors_total and registers it on reg
// (nil: not registered).
func newAnalyticsErrors(reg prometheus.Registerer) analyticsErrors {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "indexer_analytics_errors_total",
		Help: "Failures of an analytics job (each is logged and tried again after a backoff; ingest goes on), by job."},
		[]string{"job"})
	for _, job := range []string{"fold", "daily", "ledger"} {
		c.WithLabelValues(job) // every job's series exists from the start, at 0
	}
	if reg != nil {
		reg.MustRegister(c)
	}
	return analyticsErrors{c}
}

// add counts one failure of job.
func (e analyticsErrors) add(job string, _ error) {
	if e.c != nil {
		e.c.WithLabelValues(job).Inc()
	}
}
