package node

import (
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
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
