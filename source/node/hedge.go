package node

import (
	"sync"
	"time"
)

// hedgeFactor times the milestones' average read time is the hedge delay when that is
// above the configured one: a milestone is asked from a second node only when its read
// takes far longer than reads do, never because every read is slow.
const hedgeFactor = 4

// hedge is when a milestone read from one node is also asked from the next.
type hedge struct {
	least time.Duration

	mu      sync.Mutex
	average movingAverage // of the reads that succeeded
}

func newHedge(least time.Duration) *hedge { return &hedge{least: least} }

// took records a read that succeeded.
func (h *hedge) took(d time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.average.add(d)
}

// delay is how long a read may take before the milestone is asked from the next node.
func (h *hedge) delay() time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	return max(h.least, hedgeFactor*h.average.value)
}
