package ingest_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
)

func TestRestartDoesNotReingestFinishedMilestones(t *testing.T) {
	st, _ := newStore(t)
	src := sim.New(simOptions(40))
	first := ingest.NewMetrics(nil)
	ingestAll(t, st, src, 40, first)
	if got := testutil.ToFloat64(first.Milestones); got != 40 {
		t.Fatalf("first run wrote %v milestones, want 40", got)
	}
	hintRows := testutil.ToFloat64(first.Rows.WithLabelValues("tag_hints")) +
		testutil.ToFloat64(first.Rows.WithLabelValues("addresses_hints"))
	if known := testutil.ToFloat64(first.HintsKnown); known == 0 || known > hintRows {
		t.Fatalf("indexer_hints_known = %v after %v hint rows written; want some, at most those", known, hintRows)
	}
	again := ingest.NewMetrics(nil)
	ingestAll(t, st, src, 40, again)
	if got := testutil.ToFloat64(again.Milestones); got != 0 {
		t.Fatalf("restart re-wrote %v milestones, want 0", got)
	}
	// A gap (a lost sync row) is refilled, and only it.
	if err := deleteSync(st, 17); err != nil {
		t.Fatal(err)
	}
	refill := ingest.NewMetrics(nil)
	ingestAll(t, st, src, 40, refill)
	if got := testutil.ToFloat64(refill.Milestones); got != 1 {
		t.Fatalf("gap refill wrote %v milestones, want exactly 1", got)
	}
	storetest.AssertNoGaps(t, st, 1, 40)
}

func TestMalformedRecordStopsThePipelineAtThatMilestone(t *testing.T) {
	for _, fault := range []sim.Fault{sim.FaultUnknownInput, sim.FaultOversized, sim.FaultMalformedID,
		sim.FaultBadSignature, sim.FaultIncompleteCone} {
		t.Run(fault.String(), func(t *testing.T) {
			st, _ := newStore(t)
			const bad = 23
			opts := simOptions(40)
			opts.Faults = map[uint32]sim.Fault{bad: fault}
			m := ingest.NewMetrics(nil)
			p := ingest.New(sim.New(opts), st, ingest.Config{NodeID: 1, StopAt: 40, Window: 4, FetchAhead: 8}, m, nil)
			err := p.Run(context.Background())
			var refused *ingest.MilestoneError
			var invalid *chain.ValidationError
			if !errors.As(err, &refused) || refused.Index != bad || !errors.As(err, &invalid) || invalid.Field == "" {
				t.Fatalf("Run: got %v, want a MilestoneError for %d naming a field", err, bad)
			}
			t.Logf("refused as expected: %v", err)
			if got := testutil.ToFloat64(m.Errors.WithLabelValues("validation")); got != 1 {
				t.Errorf("validation errors metric = %v, want 1", got)
			}
			status, err := st.Status(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if status.Newest != bad-1 || len(status.Gaps) != 0 {
				t.Fatalf("sync after refusal: newest %d gaps %v, want newest %d and no gaps", status.Newest, status.Gaps, bad-1)
			}
			for i := uint32(bad); i <= 40; i++ {
				if n := countMessagesOf(t, st, i); n != 0 {
					t.Fatalf("milestone %d has %d messages written after the refused milestone %d", i, n, bad)
				}
			}
		})
	}
}

// otherNetworkSource names a network other than the one its milestones were verified
// against (the sim's): the keyspace records the one it names.
type otherNetworkSource struct{ *sim.Sim }

func (s otherNetworkSource) Network(ctx context.Context) (chain.Network, error) {
	net, err := s.Sim.Network(ctx)
	net.Keys.Threshold--
	return net, err
}

// A milestone verified against another network than the keyspace's is refused before
// anything of it is written, even though it passed its source's verification.
func TestMilestoneVerifiedForAnotherNetworkIsRefused(t *testing.T) {
	st, _ := newStore(t)
	p := ingest.New(otherNetworkSource{sim.New(simOptions(5))}, st, ingest.Config{NodeID: 1, StopAt: 5}, nil, nil)
	err := p.Run(context.Background())
	var refused *ingest.MilestoneError
	if !errors.As(err, &refused) || refused.Index != 1 || !strings.Contains(err.Error(), "another network") {
		t.Fatalf("Run: got %v, want milestone 1 refused as verified against another network", err)
	}
	if n := countMessagesOf(t, st, 1); n != 0 {
		t.Fatalf("milestone 1 has %d messages written", n)
	}
}
