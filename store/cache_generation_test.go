package store

import (
	"context"
	"slices"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"
)

// Raises of the cache generation made at once by several writers each count: the
// generation is raised by one per raise, and every raise is told its own generation.
func TestCacheGenerationRaisesCount(t *testing.T) {
	st := nodeStore(t)
	ctx := context.Background()
	if g, err := st.CacheGeneration(ctx); err != nil || g != 0 {
		t.Fatalf("generation before any raise: %d, %v; want 0", g, err)
	}
	const writers = 4
	got := make([]int64, writers)
	var g errgroup.Group
	for i := range writers {
		g.Go(func() (err error) {
			got[i], err = st.RaiseCacheGeneration(ctx, "node", CacheChange{Reason: "test", From: uint32(i), At: time.Now()})
			return err
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if gen, err := st.CacheGeneration(ctx); err != nil || gen != writers || !slices.Equal(got, []int64{1, 2, 3, 4}) {
		t.Errorf("after %d raises: generation %d (%v), raises told %v; want %d, 1..%d", writers, gen, err, got,
			writers, writers)
	}
}
