package ingest

import (
	"math"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Estimates are bounded by the milestone after the newest written (or the tip when
// lower, or when none was written), and the milestone after the last index is itself.
func TestClampEstimates(t *testing.T) {
	for _, c := range []struct {
		lastWritten, tip uint32
		ests, want       []uint32
		lowest           uint32
	}{
		{20, 20, []uint32{math.MaxUint32 - 1, 21, 3}, []uint32{21, 21, 3}, 3},
		{0, 20, []uint32{math.MaxUint32}, []uint32{21}, 21},
		{15, 20, []uint32{21}, []uint32{16}, 16},
		{math.MaxUint32, math.MaxUint32, []uint32{math.MaxUint32}, []uint32{math.MaxUint32}, math.MaxUint32},
	} {
		p := &Pipeline{}
		p.lastWritten.Store(c.lastWritten)
		msgs := make([]chain.UnreferencedMessage, len(c.ests))
		for i, est := range c.ests {
			msgs[i].EstMilestoneIndex = est
		}
		lowest := p.clampEstimates(msgs, c.tip)
		got := make([]uint32, len(msgs))
		for i := range msgs {
			got[i] = msgs[i].EstMilestoneIndex
		}
		if !slices.Equal(got, c.want) || lowest != c.lowest {
			t.Errorf("written %d, tip %d, estimates %v: %v (lowest %d); want %v (lowest %d)",
				c.lastWritten, c.tip, c.ests, got, lowest, c.want, c.lowest)
		}
	}
}
