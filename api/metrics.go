package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics counts requests and their latency per route pattern and status class, so
// dashboards see /messages/{id}, not one series per message.
type metrics struct {
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
}

func newMetrics(reg prometheus.Registerer) *metrics {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "api_requests_total",
			Help: "HTTP requests by route pattern and status class."}, []string{"route", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "api_request_duration_seconds",
			Help:    "HTTP request latency by route pattern and status class.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}},
			[]string{"route", "code"}),
	}
	reg.MustRegister(m.requests, m.latency)
	return m
}

// instrument wraps h to record each request under route. The series of the common
// answer (2xx) are looked up once here rather than hashed by label values per request.
func (m *metrics) instrument(route string, h http.Handler) http.Handler {
	okCount, okLatency := m.requests.WithLabelValues(route, "2xx"), m.latency.WithLabelValues(route, "2xx")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(rec, r)
		took := time.Since(start).Seconds()
		if rec.status/100 == 2 {
			okCount.Inc()
			okLatency.Observe(took)
			return
		}
		class := statusClass(rec.status)
		m.requests.WithLabelValues(route, class).Inc()
		m.latency.WithLabelValues(route, class).Observe(took)
	})
}

func statusClass(status int) string { return strconv.Itoa(status/100) + "xx" }

// statusRecorder remembers the status a handler sent.
type statusRecorder struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (r *statusRecorder) WriteHeader(status int) {
	if !r.wrote {
		r.status, r.wrote = status, true
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	r.wrote = true
	return r.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the real writer.
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
