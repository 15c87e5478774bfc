// Package wait holds the one context-aware sleep the retry and polling loops share
// (the CQL session's backoff, the ingest pipeline's polls and pauses).
package wait

import (
	"context"
	"time"
)

// Sleep waits d or until ctx ends, whichever is first.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
