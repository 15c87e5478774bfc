package nodetest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http/httptest"

	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

// Listen starts a server over set on ln (closed with the server) instead of a loopback
// port of its own, so that a process can serve the fake node at an address it is given.
func Listen(set *realdata.Set, ln net.Listener) (*Server, error) {
	s, err := unstarted(set)
	if err != nil {
		return nil, err
	}
	srv := httptest.NewUnstartedServer(s)
	_ = srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	s.srv = srv
	return s, nil
}

// GrowSim adds the simulated milestone after the highest the node holds, as a live node
// meets it: its blocks are announced (AttachBlocks, while the event API runs), then it is
// confirmed (SetConfirmed).
// src must be the chain the node's milestones came from; it is asked in order only, so
// its Options.Retain may be small. It returns the new milestone's index.
func (s *Server) GrowSim(ctx context.Context, src *sim.Sim) (uint32, error) {
	_, highest := s.ix.bounds()
	cm, err := src.Confirmed(ctx, highest+1)
	if err != nil {
		return 0, fmt.Errorf("nodetest: simulated milestone %d: %w", highest+1, err)
	}
	if err := s.ix.append(simMilestone(cm)); err != nil {
		return 0, err
	}
	if err := s.AttachBlocks(cm.Index); err != nil && !errors.Is(err, ErrEventsOff) {
		return 0, err
	}
	return cm.Index, s.SetConfirmed(cm.Index)
}

// Forget prunes the node at index (SetPruningIndex) and drops from memory every
// milestone at or below it, with their blocks and the outputs they spent, so that a node
// that grows for days holds only its newest milestones. Unspent outputs stay served,
// as a pruned Hornet node's ledger keeps them.
func (s *Server) Forget(index uint32) error {
	if err := s.SetPruningIndex(index); err != nil {
		return err
	}
	s.ix.forget(index)
	return nil
}

// append adds m, which must follow the highest milestone held.
func (ix *index) append(m *realdata.Milestone) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if m.Index != ix.highest+1 {
		return fmt.Errorf("nodetest: milestone %d added after %d", m.Index, ix.highest)
	}
	for i := range m.Created {
		if err := ix.addOutput(m.Created[i], nil); err != nil {
			return err
		}
	}
	for i := range m.Consumed {
		if err := ix.addOutput(m.Consumed[i].Output, &m.Consumed[i]); err != nil {
			return err
		}
	}
	ix.milestones[m.Index], ix.byID[m.MilestoneID], ix.highest = m, m.Index, m.Index
	for i := range m.Cone {
		ix.blocks[m.Cone[i].ID] = &m.Cone[i]
	}
	return nil
}

// forget drops the milestones at or below index, their blocks and the outputs they
// spent; the highest milestone always stays.
func (ix *index) forget(index uint32) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	index = min(index, ix.highest-1)
	for i := ix.lowest; i <= index; i++ {
		m := ix.milestones[i]
		if m == nil {
			continue
		}
		delete(ix.milestones, i)
		delete(ix.byID, m.MilestoneID)
		for _, b := range m.Cone {
			delete(ix.blocks, b.ID)
		}
		for _, sp := range m.Consumed {
			delete(ix.outputs, sp.Output.OutputID)
		}
	}
	ix.lowest = max(ix.lowest, index+1)
}
