// Package nodetest is a fake Hornet node for tests and benchmarks of node clients: an httptest
// server answering the TIP-25 core REST API v2 (/api/core/v2) from a realdata.Set (the real
// Shimmer milestones, or a simulated chain converted by FromSim), with controls to move the
// confirmed milestone, require a JWT and inject faults.
//
// Blocks and outputs are served in binary only (Accept: application/vnd.iota.serializer-v1);
// a JSON request for them answers 415, because the data holds outputs in Chronicle's model,
// not TIP-25 JSON. Milestones are served in both forms; metadata, info and UTXO changes in JSON.
//
// It writes its JSON with its own types, on purpose, and never imports tip25: it stands in
// for Hornet independently of the indexer's TIP-25 forms, so a test of source/node (which
// reads through tip25) checks those forms against a second writer, not against themselves.
package nodetest

import (
	"fmt"
	"net/http/httptest"
	"sync"
	"time"

	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

// Server is a running fake node. All methods are safe for concurrent use.
type Server struct {
	srv *httptest.Server
	ix  *index

	mu           sync.Mutex
	confirmed    uint32
	pruning      uint32 // 0: off (SetPruningIndex)
	token        string
	latency      time.Duration
	fails        []*failRule
	corrupt      map[[32]byte]bool
	bookings     map[[34]byte]Booking // misstated output metadata (MisstateOutput)
	hidden       map[[34]byte]bool    // output metadata answering 404 (HideOutputMetadata)
	hiddenBlocks map[[32]byte]bool    // blocks answering 404 (HideBlock)
	dieIn        int                  // requests still served before dying; -1 = not armed
	counts       map[string]int

	evMu   sync.Mutex
	ev     *events // the event API while it runs (StartEvents)
	evAddr string  // its TCP address, kept across a restart
}

// New starts a server over set, confirmed at the set's highest milestone. Close it when done.
func New(set *realdata.Set) (*Server, error) {
	s, err := unstarted(set)
	if err != nil {
		return nil, err
	}
	s.srv = httptest.NewServer(s)
	return s, nil
}

// unstarted is a server over set, not yet listening.
func unstarted(set *realdata.Set) (*Server, error) {
	ix, err := newIndex(set)
	if err != nil {
		return nil, err
	}
	return &Server{ix: ix, confirmed: ix.highest, corrupt: map[[32]byte]bool{},
		bookings: map[[34]byte]Booking{}, hidden: map[[34]byte]bool{}, hiddenBlocks: map[[32]byte]bool{}, dieIn: -1, counts: map[string]int{}}, nil
}

// URL is the server's base URL (without /api/core/v2).
func (s *Server) URL() string { return s.srv.URL }

// Close shuts the server and its event API down.
func (s *Server) Close() {
	s.StopEvents()
	s.srv.Close()
}

// SetConfirmed moves the node's confirmed (and latest) milestone; it must be a milestone of the
// set. Milestones above it, and outputs booked above it, are unknown to the node; blocks they
// reference are served as not yet referenced; spends above it are not yet seen. With the
// event API running, the milestones newly confirmed are announced (StartEvents).
func (s *Server) SetConfirmed(index uint32) error {
	if s.ix.milestone(index) == nil {
		lowest, highest := s.ix.bounds()
		return fmt.Errorf("nodetest: milestone %d is not in the set (%d..%d)", index, lowest, highest)
	}
	s.mu.Lock()
	before := s.confirmed
	s.confirmed = index
	s.mu.Unlock()
	return s.announce(before, index)
}

// Confirmed returns the confirmed milestone index.
func (s *Server) Confirmed() uint32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.confirmed
}

// SetToken requires "Authorization: Bearer <token>" on every route but /health and
// /api/routes; "" turns the check off.
func (s *Server) SetToken(token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.token = token
}

// SetLatency delays every answer by d (0 = none), for benchmarks.
func (s *Server) SetLatency(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latency = d
}
