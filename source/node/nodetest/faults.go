package nodetest

import (
	"crypto/subtle"
	"maps"
	"net"
	"net/http"
	"slices"
	"strings"
)

// failRule makes the next n requests whose path starts with prefix answer 500.
type failRule struct {
	prefix string
	n      int
}

// FailNext makes the next n requests whose URL path starts with pathPrefix ("" = any) answer
// 500 with a TIP-25 error body; later requests are served normally again. Rules add up.
func (s *Server) FailNext(n int, pathPrefix string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fails = slices.DeleteFunc(s.fails, func(f *failRule) bool { return f.n <= 0 }) // used up
	s.fails = append(s.fails, &failRule{prefix: pathPrefix, n: n})
}

// CorruptBlock makes /blocks/{id} serve bytes that no longer hash to id (on) or the true
// bytes again (off).
func (s *Server) CorruptBlock(id [32]byte, on bool) { toggle(s, s.corrupt, id, on) }

// Booking is what an output's metadata says of its creation: the block whose transaction
// created it, the milestone that booked it and that milestone's timestamp (Unix seconds).
type Booking struct {
	BlockID   [32]byte
	Index     uint32
	Timestamp uint32
}

// MisstateOutput makes /outputs/{id}/metadata name b as the output's creation instead of
// the data's (a node whose metadata, which nothing signs, is wrong); nil restores the data's.
func (s *Server) MisstateOutput(id [34]byte, b *Booking) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if b != nil {
		s.bookings[id] = *b
	} else {
		delete(s.bookings, id)
	}
}

// HideOutputMetadata makes /outputs/{id}/metadata answer 404 (on), as a node that pruned
// the output does, or serve it again (off). The output's bytes are still served.
func (s *Server) HideOutputMetadata(id [34]byte, on bool) { toggle(s, s.hidden, id, on) }

// toggle puts key into the control set (on) or takes it out (off), under s's lock.
func toggle[K comparable](s *Server, set map[K]bool, key K, on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if on {
		set[key] = true
	} else {
		delete(set, key)
	}
}

// outputFaults returns the metadata controls of output id.
func (s *Server) outputFaults(id [34]byte) (b Booking, misstated, hidden bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, misstated = s.bookings[id]
	return b, misstated, s.hidden[id]
}

// DieAfter serves k more requests, then closes every request's connection without an answer
// (a crashed node behind a live socket) until Revive.
func (s *Server) DieAfter(k int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dieIn = max(k, 0)
}

// Revive ends DieAfter.
func (s *Server) Revive() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dieIn = -1
}

// Count returns how many requests reached a route (a Route* name), faulted ones included.
func (s *Server) Count(route string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[route]
}

// Counts returns a copy of all per-route counters.
func (s *Server) Counts() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.counts)
}

// ResetCounts sets every counter to zero.
func (s *Server) ResetCounts() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.counts)
}

// gate counts the request and decides its fate before routing, under one lock so that
// concurrent requests see the controls consistently.
func (s *Server) gate(r *http.Request, route string, public bool) (die, fail, authorized bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts[route]++
	if s.dieIn == 0 {
		return true, false, false
	}
	if s.dieIn > 0 {
		s.dieIn--
	}
	authorized = public || s.token == "" ||
		subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), []byte("Bearer "+s.token)) == 1
	if !authorized {
		return false, false, false // a rejected request does not use up a fault
	}
	for _, f := range s.fails {
		if f.n > 0 && strings.HasPrefix(r.URL.Path, f.prefix) {
			f.n--
			return false, true, authorized
		}
	}
	return false, false, authorized
}

// kill closes the connection without an answer; linger 0 makes it a reset, as a crash would.
func kill(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler) // the server drops the connection
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		return
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}
