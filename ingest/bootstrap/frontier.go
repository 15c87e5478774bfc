package bootstrap

import "sync"

// frontier is how far a stream of batches written out of order is written without a
// hole: the position a resumed run may start from.
type frontier struct {
	mu    sync.Mutex
	done  uint64            // every output up to here is written
	ended map[uint64]uint64 // batches written past a hole: start -> end
}

func newFrontier(from uint64) *frontier { return &frontier{done: from, ended: map[uint64]uint64{}} }

// complete records that outputs (start, end] are written and returns the frontier.
func (f *frontier) complete(start, end uint64) uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ended[start] = end
	for {
		next, ok := f.ended[f.done]
		if !ok {
			return f.done
		}
		delete(f.ended, f.done)
		f.done = next
	}
}
