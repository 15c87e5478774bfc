package ingest

import (
	"context"
	"time"

	"github.com/stardust-indexer/stardust-indexer/internal/adaptive"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// DefaultReadProbe is Config.ReadProbe's default: how often the read guard probes.
const DefaultReadProbe = 100 * time.Millisecond

// readProbeTimeout bounds one probe: a probe that takes longer counts as this slow.
const readProbeTimeout = time.Second

// ReadGuardFloor is the lowest cap the read guard sets: a read waits behind at most
// about this many writes, while the pipeline keeps a pace that follows a live network.
const ReadGuardFloor = MinWrites

// startReadGuard runs guardReads under ctx unless the writes are fixed or the guard is
// off, and returns what stops it and waits for it.
func (p *Pipeline) startReadGuard(ctx context.Context) (stop func()) {
	if p.cfg.FixedWrites || p.cfg.ReadProbe < 0 {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.guardReads(ctx)
	}()
	return func() {
		cancel()
		<-done
	}
}

// guardReads probes the database with one small read every ReadProbe and caps the
// write limit from what the probes take (adaptive.ReadGuard), until ctx ends: reads
// of the API sharing the database keep their latency while the pipeline writes.
func (p *Pipeline) guardReads(ctx context.Context) {
	g := adaptive.NewReadGuard(min(ReadGuardFloor, p.st.MaxInFlight()), p.st.MaxInFlight())
	p.m.ReadCap.Set(float64(g.Cap()))
	tick := time.NewTicker(p.cfg.ReadProbe)
	defer tick.Stop()
	defer p.writes.SetCap(0)
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		took := p.probeRead(ctx)
		if ctx.Err() != nil {
			return
		}
		p.m.ReadProbeSec.Observe(took.Seconds())
		if g.Observe(took, p.behind()) {
			p.writes.SetCap(g.Cap())
			p.m.ReadCap.Set(float64(g.Cap()))
		}
	}
}

// probeRead times one read tried once; a failed read counts as the probe's timeout.
func (p *Pipeline) probeRead(ctx context.Context) time.Duration {
	pctx, cancel := context.WithTimeout(store.NoRetries(ctx), readProbeTimeout)
	defer cancel()
	start := time.Now()
	if err := p.st.Ping(pctx); err != nil {
		return readProbeTimeout
	}
	return time.Since(start)
}

// behindBy is the lag past which the read guard lifts its cap: the pipeline is not
// keeping up with the source under it.
const behindBy = DefaultWindow

// behind says whether the pipeline lags the source's tip by more than behindBy.
func (p *Pipeline) behind() bool { return p.lag.Load() > behindBy }
