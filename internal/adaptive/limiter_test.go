package adaptive

import (
	"slices"
	"testing"
	"time"
)

func TestLimiterReportsChanges(t *testing.T) {
	var limits []int
	l := NewLimiter(16, 4, 64, func(limit int, _ time.Duration) { limits = append(limits, limit) })
	l.Observe(16, time.Second, 1, Ignored) // a canceled write says nothing
	l.Observe(16, time.Second, 1, Overloaded)
	if want := []int{16, 11}; !slices.Equal(limits, want) || l.Limit() != 11 {
		t.Fatalf("limits reported %v (now %d), want %v", limits, l.Limit(), want)
	}
}
