package ingest_test

import (
	"context"
	"testing"

	dto "github.com/prometheus/client_model/go"

	"github.com/stardust-indexer/stardust-indexer/ingest"
)

// The read guard probes the database while the pipeline runs, and its cap stays
// within the write limit's range; with ReadProbe negative or fixed writes it does not run.
func TestReadGuardProbesWhileIngesting(t *testing.T) {
	st, _ := newStoreOrSkip(t)
	const tip = 60
	for _, c := range []struct {
		name   string
		cfg    ingest.Config
		probes bool
	}{
		{"default", ingest.Config{NodeID: 1, StopAt: tip}, true},
		{"off", ingest.Config{NodeID: 1, StopAt: tip, ReadProbe: -1}, false},
		{"fixed writes", ingest.Config{NodeID: 1, StopAt: tip, FixedWrites: true}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := ingest.NewMetrics(nil)
			if err := ingest.New(simSource(tip), st, c.cfg, m, nil).Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			var h dto.Metric
			if err := m.ReadProbeSec.Write(&h); err != nil {
				t.Fatal(err)
			}
			probes := h.GetHistogram().GetSampleCount()
			if (probes > 0) != c.probes {
				t.Fatalf("%d probes; want some: %t", probes, c.probes)
			}
			var g dto.Metric
			if err := m.ReadCap.Write(&g); err != nil {
				t.Fatal(err)
			}
			if cap := g.GetGauge().GetValue(); c.probes && (cap < ingest.ReadGuardFloor || cap > float64(st.MaxInFlight())) {
				t.Fatalf("cap %g outside [%d, %d]", cap, ingest.ReadGuardFloor, st.MaxInFlight())
			}
		})
	}
}
