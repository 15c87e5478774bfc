package node

import (
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

// A confirmed-milestone event with an index wakes the follower.
func TestConfirmedEventWakes(t *testing.T) {
	h := newEventHub()
	if err := h.handle(topicConfirmed, []byte(`{"index":5}`), time.Now(), true); err != nil {
		t.Fatal(err)
	}
	select {
	case <-h.wake:
	default:
		t.Fatal("a confirmed milestone did not wake the follower")
	}
}

// An empty block event is refused, not read past its end.
func TestEmptyBlockEventRefused(t *testing.T) {
	h := newEventHub()
	h.knowNetwork(chain.Shimmer())
	if _, err := h.checkBlock(nil); err == nil {
		t.Fatal("an empty block passed the checks")
	}
}

// A referenced-block event drops that block from the pending ones.
func TestReferencedEventDropsThePendingBlock(t *testing.T) {
	set, err := realdata.Load()
	if err != nil {
		t.Fatal(err)
	}
	h := newEventHub()
	h.knowNetwork(chain.Shimmer())
	var held chain.MessageID
	for _, b := range set.Milestones[17340].Cone {
		if m, err := chain.DecodeMessage(b.Raw); err == nil && m.MilestoneOf() == nil {
			if err := h.handle(topicBlocks, b.Raw, time.Now(), true); err != nil {
				t.Fatal(err)
			}
			held = b.ID
			break
		}
	}
	if len(h.pending.list()) != 1 {
		t.Fatalf("%d blocks pending, want 1", len(h.pending.list()))
	}
	if err := h.handle(topicReferenced, []byte(`{"blockId":"`+held.String()+`"}`), time.Now(), true); err != nil {
		t.Fatal(err)
	}
	if n := len(h.pending.list()); n != 0 {
		t.Fatalf("%d blocks pending after the referenced event, want 0", n)
	}
}
