package analytics

import "time"

// Default bounds of the wait before an analytics job that failed is tried again.
const (
	DefaultRetryMin = 5 * time.Second
	DefaultRetryMax = 10 * time.Minute
)

// Backoff is the wait before the next try of a job that keeps failing: Min after the
// first failure, doubling after each further one up to Max; a success starts it over.
type Backoff struct {
	Min, Max time.Duration // default DefaultRetryMin, DefaultRetryMax
	failures int
}

// Failed counts a failure and returns the wait before the next try.
func (b *Backoff) Failed() time.Duration {
	lo, hi := orDefault(b.Min, DefaultRetryMin), orDefault(b.Max, DefaultRetryMax)
	wait := lo
	for i := 0; i < b.failures && wait < hi; i++ {
		wait *= 2
	}
	b.failures++
	return min(wait, hi)
}

// Succeeded starts the waits over.
func (b *Backoff) Succeeded() { b.failures = 0 }

// Failures is how many tries in a row failed.
func (b *Backoff) Failures() int { return b.failures }
