package hints

import (
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
