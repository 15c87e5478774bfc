package sim

import (
	"math/rand"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// idSet is an insertion-ordered set of output IDs with O(1) removal and
// uniform random picks. Unlike map iteration, its order is deterministic,
// which the generator needs to reproduce a chain from its seed.
type idSet struct {
	ids []chain.OutputID
	pos map[chain.OutputID]int
}

func newIDSet() *idSet { return &idSet{pos: make(map[chain.OutputID]int)} }

func (s *idSet) len() int { return len(s.ids) }

func (s *idSet) add(id chain.OutputID) {
	if _, ok := s.pos[id]; ok {
		return
	}
	s.pos[id] = len(s.ids)
	s.ids = append(s.ids, id)
}

// remove swaps the last element into the hole; still deterministic.
func (s *idSet) remove(id chain.OutputID) {
	i, ok := s.pos[id]
	if !ok {
		return
	}
	last := s.ids[len(s.ids)-1]
	s.ids[i] = last
	s.pos[last] = i
	s.ids = s.ids[:len(s.ids)-1]
	delete(s.pos, id)
}

func (s *idSet) pick(rng *rand.Rand) chain.OutputID { return s.ids[rng.Intn(len(s.ids))] }

// pickDistinct returns up to n different IDs.
func (s *idSet) pickDistinct(rng *rand.Rand, n int) []chain.OutputID {
	n = min(n, len(s.ids))
	seen := make(map[chain.OutputID]bool, n)
	out := make([]chain.OutputID, 0, n)
	for len(out) < n {
		id := s.pick(rng)
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
