package hints

import (
	"fmt"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/store"
)

func TestWriterSkipsKnownHintsUntilForget(t *testing.T) {
	w := NewWriter(100)
	s := store.NewHintSet()
	s.AddTag("tag", store.TagKindMessage, 3)
	s.AddAddress("addr", "basic", "address", 3)
	if n := len(w.Writes(s, 1)); n != 2 {
		t.Fatalf("first writes = %d, want 2", n)
	}
	w.Remember(s)
	if n := len(w.Writes(s, 2)); n != 0 {
		t.Fatalf("writes after Remember = %d, want 0", n)
	}
	w.Forget()
	if n := len(w.Writes(s, 3)); n != 2 {
		t.Fatalf("writes after Forget = %d, want 2: hints a lost write carried must be written again", n)
	}
}

// The writer stays bounded over a long run of one-off addresses while a busy address,
// seen every milestone, is never written again.
func TestWriterStaysBoundedAndKeepsBusyHints(t *testing.T) {
	const limit = 50
	w := NewWriter(limit)
	busy := store.NewHintSet()
	busy.AddAddress("busy", "basic", "address", 1)
	w.Remember(busy)
	for i := range 10 * limit {
		if n := len(w.Writes(busy, int64(i))); n != 0 {
			t.Fatalf("milestone %d: busy address rewritten (%d writes)", i, n)
		}
		once := store.NewHintSet()
		once.AddAddress(fmt.Sprintf("once-%d", i), "basic", "address", 1)
		if n := len(w.Writes(once, int64(i))); n != 1 {
			t.Fatalf("milestone %d: new address gives %d writes, want 1", i, n)
		}
		w.Remember(once)
		if k := w.Known(); k > 2*limit {
			t.Fatalf("milestone %d: writer knows %d hints, bound is %d", i, k, 2*limit)
		}
	}
	old := store.NewHintSet()
	old.AddAddress("once-0", "basic", "address", 1)
	if n := len(w.Writes(old, 0)); n != 1 {
		t.Fatalf("a hint aged out long ago gives %d writes, want 1 (written again, harmless)", n)
	}
}
