package node

import (
	"sync"
	"time"
)

// Benching: a node that fails is left out for benchBase, doubling with each failure in
// a row up to benchMax; an answer that succeeds ends the streak.
const (
	benchBase = 2 * time.Second
	benchMax  = 5 * time.Minute
)

// health is what the source knows of one node: its last status and its bench.
type health struct {
	mu        sync.Mutex
	known     bool   // a status was read
	confirmed uint32 // its confirmed milestone
	oldest    uint32 // the oldest milestone it holds
	foreign   bool   // it serves another network: never asked again
	strikes   int
	until     time.Time
	latency   movingAverage // of its answers' round trips
}

// status records an /info answer.
func (h *health) status(confirmed, oldest uint32) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.known, h.confirmed, h.oldest = true, confirmed, oldest
}

// benched tells whether the node sits out now.
func (h *health) benched(now time.Time) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.foreign || now.Before(h.until)
}

// behind tells whether the node's last status is below index.
func (h *health) behind(index uint32) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.known && h.confirmed < index
}

// bench leaves the node out for the streak's backoff and returns it.
func (h *health) bench(now time.Time) time.Duration { return h.benchAtLeast(now, 0) }

// benchAtLeast leaves the node out for the streak's backoff, at least least, and
// returns how long.
func (h *health) benchAtLeast(now time.Time, least time.Duration) time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.strikes++
	d := benchMax
	if h.strikes < 20 {
		d = min(max(benchBase<<(h.strikes-1), least), benchMax)
	}
	h.until = now.Add(d)
	return d
}

// answered adds an answer's round trip to the node's latency average and returns it
// with the number of answers it holds.
func (h *health) answered(d time.Duration) (time.Duration, int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.latency.add(d)
	return h.latency.value, h.latency.count
}

// roundTrip is the node's latency average and the answers it holds.
func (h *health) roundTrip() (time.Duration, int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.latency.value, h.latency.count
}

// recovered ends the streak; it tells whether the node was benched.
func (h *health) recovered() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	was := h.strikes > 0
	h.strikes, h.until = 0, time.Time{}
	return was
}

// isForeign tells whether the node serves another network.
func (h *health) isForeign() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.foreign
}

// markForeign leaves the node out for good.
func (h *health) markForeign() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.foreign = true
}

// snapshot is the node's last status.
func (h *health) snapshot() (known bool, confirmed, oldest uint32) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.known, h.confirmed, h.oldest
}
