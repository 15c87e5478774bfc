package node

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// aheadKeep is how long a milestone read ahead waits to be asked for before it is
// dropped (an asker that stopped, or asks for other milestones).
const aheadKeep = time.Minute

// aheadIdle is how long a milestone read ahead may wait for its asker before the depth
// shrinks: it was read needlessly early.
const aheadIdle = 5 * time.Second

// readAhead holds the milestones read before they were asked for. The indexer asks for
// milestones in order, a few at once; against a node far away each milestone costs
// several round trips, so the source reads the next ones meanwhile. How many adapts
// (between 0 and the ceiling, see adapt).
// The results are verified milestones (the same path as asked ones), used once.
type readAhead struct {
	ceiling int

	mu    sync.Mutex
	depth int
	reads map[uint32]*aheadRead
	asked map[uint32]time.Time // milestones asked for lately: never read ahead again
}

// aheadRead is one milestone read ahead: done is closed when vm or err is set.
type aheadRead struct {
	started time.Time
	ended   time.Time // set with vm and err
	done    chan struct{}
	vm      *chain.VerifiedMilestone
	err     error
}

func newReadAhead(ceiling int) *readAhead {
	return &readAhead{ceiling: max(ceiling, 0), reads: make(map[uint32]*aheadRead), asked: make(map[uint32]time.Time)}
}

// take returns milestone index if it is read ahead, waiting for the read; ok is false
// when it is not, or its read failed (then the asker reads it itself, and the failure
// was already charged to its node). waited tells whether the asker had to wait, idle
// how long the read had waited for it.
func (a *readAhead) take(ctx context.Context, index uint32) (vm *chain.VerifiedMilestone, ok, waited bool, idle time.Duration) {
	a.mu.Lock()
	r := a.reads[index]
	delete(a.reads, index)
	a.asked[index] = time.Now()
	a.mu.Unlock()
	if r == nil {
		return nil, false, true, 0
	}
	select {
	case <-r.done:
		idle = time.Since(r.ended)
	default:
		waited = true
		select {
		case <-r.done:
		case <-ctx.Done():
			return nil, false, waited, 0
		}
	}
	return r.vm, r.err == nil, waited, idle
}

// plan marks the milestones after index to read ahead (up to the depth, none above tip,
// none already read) and returns them; the caller reads each and calls finish.
func (a *readAhead) plan(index, tip uint32) map[uint32]*aheadRead {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := time.Now()
	a.forget(now)
	out := make(map[uint32]*aheadRead)
	for i := uint64(index) + 1; i <= uint64(index)+uint64(a.depth) && i <= uint64(tip); i++ {
		_, reading := a.reads[uint32(i)]
		_, asked := a.asked[uint32(i)]
		if reading || asked || len(a.reads) >= 2*a.ceiling {
			continue
		}
		r := &aheadRead{started: now, done: make(chan struct{})}
		a.reads[uint32(i)], out[uint32(i)] = r, r
	}
	return out
}

// forget drops the reads and the asks older than aheadKeep, under a.mu.
func (a *readAhead) forget(now time.Time) {
	for i, r := range a.reads {
		if now.Sub(r.started) > aheadKeep {
			delete(a.reads, i)
		}
	}
	for i, at := range a.asked {
		if now.Sub(at) > aheadKeep {
			delete(a.asked, i)
		}
	}
}

// finish records the read: its asker, if one waits, takes it now.
func (r *aheadRead) finish(vm *chain.VerifiedMilestone, err error) {
	r.vm, r.err, r.ended = vm, err, time.Now()
	close(r.done)
}

// adapt moves the depth after an ask: up when the asker waited while the nodes'
// requests were below their limit (more milestones at once would have used it), down
// when the asker's milestone had been read for longer than aheadIdle (read needlessly
// early), and not while requests queue for the limit (more milestones would only queue).
func (a *readAhead) adapt(waited, queued bool, idle time.Duration) {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case waited && !queued:
		a.depth = min(a.depth+1, a.ceiling)
	case !waited && idle > aheadIdle:
		a.depth = max(a.depth-1, 0)
	}
}

// Depth is how many milestones are read ahead now.
func (a *readAhead) Depth() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.depth
}

// Tuning describes the adaptive state, for probes.
func (s *Source) Tuning() string {
	out := fmt.Sprintf("read ahead %d", s.ahead.Depth())
	for _, m := range s.members {
		out += fmt.Sprintf(", %s limit %d", m.host, m.c.gate.limit())
	}
	return out
}
