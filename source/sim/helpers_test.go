package sim

import (
	"bytes"
	"context"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// milestones fetches FirstIndex..FirstIndex+n-1 in order.
func milestones(t *testing.T, s *Sim, n uint32) []*chain.ConfirmedMilestone {
	t.Helper()
	var out []*chain.ConfirmedMilestone
	first := s.Options().FirstIndex
	for i := first; i < first+n; i++ {
		cm, err := s.Confirmed(context.Background(), i)
		if err != nil {
			t.Fatalf("milestone %d: %v", i, err)
		}
		out = append(out, cm)
	}
	return out
}

// fingerprint flattens everything a milestone carries into bytes, so two
// milestones compare equal only if they are identical byte for byte.
func fingerprint(cm *chain.ConfirmedMilestone) []byte {
	var b bytes.Buffer
	b.WriteString(cm.Timestamp.String())
	b.Write(cm.MilestoneID[:])
	b.Write(cm.PreviousMilestoneID[:])
	b.Write(cm.Milestone.Encode())
	for _, m := range cm.Messages {
		b.Write(m.ID[:])
		b.Write(m.Raw)
		b.WriteByte(byte(m.InclusionState))
		b.WriteByte(byte(m.ConflictReason))
	}
	for _, o := range cm.Created {
		b.Write(o.OutputID[:])
		b.Write(o.MessageID[:])
		b.Write(chain.EncodeOutput(o.Output))
	}
	for _, o := range cm.Consumed {
		b.Write(o.OutputID[:])
		b.Write(o.SpentBy[:])
		b.WriteString(o.Timestamp.String())
	}
	return b.Bytes()
}
