package store

import (
	"context"
	"slices"
	"testing"

	"golang.org/x/sync/errgroup"
)

// Marking and clearing unavailable milestones is idempotent and loses nothing when
// several writers change the record at once.
func TestUnavailableRecord(t *testing.T) {
	st := nodeStore(t)
	ctx := context.Background()
	var g errgroup.Group
	for i := uint32(1); i <= 4; i++ {
		g.Go(func() error {
			_, err := st.MarkUnavailable(ctx, Range{From: i * 10, To: i*10 + 1}, "node")
			return err
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := st.MarkUnavailable(ctx, Range{From: 10, To: 11}, "node"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.ClearUnavailable(ctx, Range{From: 21, To: 40}, "node"); err != nil {
		t.Fatal(err)
	}
	got, err := st.Unavailable(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []Range{{10, 11}, {20, 20}, {41, 41}}
	if !slices.Equal(got, want) {
		t.Fatalf("unavailable = %v, want %v", got, want)
	}
	if n := CountOf(got); n != 4 {
		t.Fatalf("CountOf = %d, want 4", n)
	}
}
