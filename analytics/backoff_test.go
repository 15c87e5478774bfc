package analytics

import (
	"testing"
	"time"
)

// The waits double from Min after each failure in a row, stop at Max, and start over
// after a success.
func TestBackoff(t *testing.T) {
	b := Backoff{Min: time.Second, Max: 5 * time.Second}
	for i, want := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second, 5 * time.Second} {
		if got := b.Failed(); got != want {
			t.Fatalf("failure %d: wait %v, want %v", i+1, got, want)
		}
	}
	if b.Failures() != 5 {
		t.Fatalf("%d failures in a row, want 5", b.Failures())
	}
	b.Succeeded()
	if got := b.Failed(); got != time.Second {
		t.Fatalf("after a success: wait %v, want %v", got, time.Second)
	}
	var d Backoff
	if got := d.Failed(); got != DefaultRetryMin {
		t.Fatalf("zero Backoff: wait %v, want %v", got, DefaultRetryMin)
	}
}
