package nodetest

import "fmt"

// SetPruningIndex makes the node answer as a Hornet node pruned at index does: 404 for
// every milestone at or below it (payload and UTXO changes) and for every block such a
// milestone referenced or that lies before the set (bytes and metadata), and /info names
// index as its pruning index. 0 turns pruning off: then every block and milestone of the
// set is served, and a block before the set is served as referenced before it. index must
// lie below the confirmed milestone.
func (s *Server) SetPruningIndex(index uint32) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if lowest := s.ix.lowestIndex(); index != 0 && (index < lowest-1 || index >= s.confirmed) {
		return fmt.Errorf("nodetest: pruning index %d outside %d..%d", index, lowest-1, s.confirmed-1)
	}
	s.pruning = index
	return nil
}

// pruningIndex is the pruning index /info names: the set's lowest milestone - 1 when
// pruning is off, since the node knows nothing older.
func (s *Server) pruningIndex() uint32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return max(s.pruning, s.ix.lowestIndex()-1)
}

// prunedMilestone says whether milestone i is pruned.
func (s *Server) prunedMilestone(i uint32) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pruning != 0 && i <= s.pruning
}

// HideBlock makes /blocks/{id} and its metadata answer 404 (on), as a node that lost the
// block does, or serves it again (off).
func (s *Server) HideBlock(id [32]byte, on bool) { toggle(s, s.hiddenBlocks, id, on) }

// withheld says whether block id answers 404: hidden, or pruned (referenced at or below
// the pruning index, or not in the set at all).
func (s *Server) withheld(id [32]byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hiddenBlocks[id] {
		return true
	}
	if s.pruning == 0 {
		return false
	}
	b := s.ix.block(id)
	return b == nil || b.ReferencedBy <= s.pruning
}
