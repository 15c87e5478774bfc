package api

import (
	"net/http"
)

const (
	// maxProbesInFlight caps the probe requests served at once; past it a probe
	// answers 429 at once (not 503: an orchestrator reads that as unhealthy).
	maxProbesInFlight = 64
)

// probeGate caps the probe requests in flight together.
type probeGate chan struct{}

// wrap serves next while a slot is free, else answers 429 at once.
func (g probeGate) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case g <- struct{}{}:
			defer func() { <-g }()
			next.ServeHTTP(w, r)
		default:
			w.Header().Set("Retry-After", "1")
			http.Error(w, "too many probes in flight", http.StatusTooManyRequests)
		}
	})
}
