package tip28

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// metrics are the broker's: its open connections, the messages it published by topic
// family, and the upgrades it refused by reason.
type metrics struct {
	published *prometheus.CounterVec
	refused   *prometheus.CounterVec
}

func newMetrics(reg prometheus.Registerer, conns *rest.ClientCaps) *metrics {
	m := &metrics{
		published: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "api_mqtt_published_total",
			Help: "Messages the TIP-28 broker published, by topic family."}, []string{"family"}),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "api_mqtt_refused_total",
			Help: "TIP-28 upgrades refused under the connection caps, by the cap: per-client or total."}, []string{"reason"}),
	}
	if reg != nil {
		reg.MustRegister(m.published, m.refused, prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "api_mqtt_connections",
			Help: "Open TIP-28 (MQTT over WebSocket) connections."}, func() float64 { return float64(conns.Open()) }))
	}
	return m
}

// families name the topic kinds in the metrics.
var families = map[kind]string{kindLatest: "milestone-info", kindConfirmed: "milestone-info", kindMilestones: "milestones",
	kindOutput: "outputs", kindUnlock: "outputs-unlock", kindIncluded: "included-block", kindBlockMetadata: "block-metadata"}
