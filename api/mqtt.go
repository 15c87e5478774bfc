package api

import (
	"net/http"

	"github.com/gorilla/websocket"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/api/tip28"
)

// newBroker is the TIP-28 broker over the server's store: its connections under the
// caps of cfg, and the read token, when configured, as the CONNECT password of a
// client whose upgrade did not carry it.
func (s *Server) newBroker() *tip28.Broker {
	cfg := tip28.Config{MaxClients: s.cfg.MaxMQTTConnections, MaxClientsPerIP: s.cfg.MaxMQTTConnectionsPerClient,
		Registry: s.cfg.Registry}
	if s.guard.hasRead {
		cfg.PasswordOK = func(p []byte) bool { return tokenMatch(s.guard.readSum, string(p)) }
	}
	return tip28.New(rest.NewReads(s.st), s.st, s.tips, cfg)
}

// withMQTT serves the WebSocket upgrades of tip28.Path with the broker, before next
// (whose wrappers cannot hand over a connection): an upgrade is one request under the
// client's request limits. Other requests to the path reach its route in next.
func (s *Server) withMQTT(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != tip28.Path || !websocket.IsWebSocketUpgrade(r) {
			next.ServeHTTP(w, r)
			return
		}
		id := clientID(r, s.guard.trusted)
		if lim := s.guard.limits; lim != nil {
			release, refused := lim.admit(r.Context(), id)
			if refused != nil {
				s.guard.turnAway(w, r, nil, refused)
				return
			}
			defer release()
		}
		s.broker.Accept(w, r, id, !s.guard.hasRead || s.guard.readAllowed(r))
	})
}

// Close stops what the server runs besides its requests: the TIP-28 broker and its
// connections (which an http.Server's Shutdown does not close; HTTPServer's calls it),
// and the tip watch's reads of the ledger index.
func (s *Server) Close() error {
	s.tips.Stop()
	return s.broker.Close()
}
