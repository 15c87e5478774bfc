package store

import (
	"context"
	"errors"
	"slices"
	"strings"
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

// Unsyncing is refused below the oldest milestone every recorded source holds, and
// allowed from it on, or when no source is recorded.
func TestCheckRefetchable(t *testing.T) {
	st := nodeStore(t)
	ctx := context.Background()
	if err := st.CheckRefetchable(ctx, 1); err != nil {
		t.Fatalf("no source recorded: %v", err)
	}
	for node, oldest := range map[string]uint32{"node-1": 500, "node-2": 300} {
		if err := st.RecordSourceOldest(ctx, node, oldest); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.CheckRefetchable(ctx, 299); !errors.Is(err, ErrBelowSources) ||
		!strings.Contains(err.Error(), "indexer import") {
		t.Fatalf("from 299: err = %v, want ErrBelowSources naming indexer import", err)
	}
	if err := st.CheckRefetchable(ctx, 300); err != nil {
		t.Fatalf("from 300: %v", err)
	}
}
