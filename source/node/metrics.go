package node

import "github.com/prometheus/client_golang/prometheus"

// metrics are the source's series, labelled by node host (never the URL's user
// information, never the token).
type metrics struct {
	requests *prometheus.CounterVec
	errors   *prometheus.CounterVec
	benches  *prometheus.CounterVec
	benched  *prometheus.GaugeVec
	hedges   *prometheus.CounterVec
	walks    *prometheus.CounterVec

	events        *prometheus.CounterVec
	eventsDropped *prometheus.CounterVec
	eventsUp      *prometheus.GaugeVec

	cachedOutputs prometheus.GaugeFunc // set by New, beside the output cache it reads
}

func newMetrics() *metrics {
	by := []string{"node"}
	return &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "indexer_node_requests_total",
			Help: "Requests made to a node, retries included."}, by),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "indexer_node_errors_total",
			Help: "Requests to a node that failed: unavailable or refused."}, by),
		benches: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "indexer_node_benched_total",
			Help: "Times a node was benched for failing, lagging or lying."}, by),
		benched: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "indexer_node_benched",
			Help: "1 from a node's failure until its next success (or for good when it serves another network)."}, by),
		hedges: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "indexer_node_hedges_total",
			Help: "Milestones also asked from a node because another took too long to answer them."}, by),
		walks: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "indexer_node_cone_walks_total",
			Help: "Milestone cones walked, by how: bytes (from the blocks' bytes alone), metadata (with each " +
				"block's metadata: the first milestones a Source reads), bytes_then_metadata (the bytes could " +
				"not vouch for the cone)."}, []string{"node", "walk"}),
		events: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "indexer_node_events_total",
			Help: "Events received from a node's event API (TIP-28), by topic."}, []string{"node", "topic"}),
		eventsDropped: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "indexer_node_events_dropped_total",
			Help: "Events from a node's event API that were dropped, by reason (malformed, protocol_version, " +
				"network_id, pow, network_unknown, busy, packet_too_large)."}, []string{"node", "reason"}),
		eventsUp: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "indexer_node_events_connected",
			Help: "1 while the source is connected to a node's event API."}, by),
	}
}

// cachedOutputsGauge reports how many outputs c holds.
func cachedOutputsGauge(c *outputCache) prometheus.GaugeFunc {
	return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "indexer_node_cached_outputs",
		Help: "Outputs the node source keeps, created by the milestones it read and not spent yet: a spend of " +
			"one asks neither the keyspace nor the node. Rises as the ledger leaves outputs unspent, up to its " +
			"bound (Config.OutputCache), and then drops by up to half its bound at a time as the outputs created " +
			"longest ago leave."}, func() float64 { return float64(c.len()) })
}

// nodeMetrics are one node's series.
type nodeMetrics struct {
	requests, errors, benches, hedges prometheus.Counter
	benched                           prometheus.Gauge
	walks                             *prometheus.CounterVec // by walk
}

func (m *metrics) of(host string) nodeMetrics {
	return nodeMetrics{requests: m.requests.WithLabelValues(host), errors: m.errors.WithLabelValues(host),
		benches: m.benches.WithLabelValues(host), benched: m.benched.WithLabelValues(host),
		hedges: m.hedges.WithLabelValues(host), walks: m.walks.MustCurryWith(prometheus.Labels{"node": host})}
}

// Register registers the source's per-node series on reg, and the size of its output
// cache.
func (s *Source) Register(reg prometheus.Registerer) error {
	for _, c := range []prometheus.Collector{s.metrics.requests, s.metrics.errors, s.metrics.benches, s.metrics.benched, s.metrics.hedges, s.metrics.walks,
		s.metrics.events, s.metrics.eventsDropped, s.metrics.eventsUp, s.metrics.cachedOutputs} {
		if err := reg.Register(c); err != nil {
			return err
		}
	}
	return nil
}
