package cql

import "context"

type noRetriesKey struct{}

// NoRetries marks ctx so that the statements run under it are tried once: for checks
// that answer from a deadline (probes) rather than wait out the retries.
func NoRetries(ctx context.Context) context.Context {
	return context.WithValue(ctx, noRetriesKey{}, true)
}

// retries is the extra attempts a statement run under ctx may take.
func (s *Session) retries(ctx context.Context) int {
	if ctx.Value(noRetriesKey{}) != nil {
		return 0
	}
	return s.cfg.Retries
}
