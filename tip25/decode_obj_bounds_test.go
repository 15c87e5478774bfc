package tip25

import (
	"strings"
	"testing"
)

// A JSON array of exactly its maximum length is read.
func TestListAtItsMaximum(t *testing.T) {
	d := &decoder{}
	o := d.object("x", []byte(`{"parents":[1,2,3]}`))
	if items := o.list("parents", true, 3); d.err != nil || len(items) != 3 {
		t.Fatalf("a list of 3 with a maximum of 3: %d items, %v", len(items), d.err)
	}
}

// Error messages cut a value past 40 bytes, and only past it.
func TestShortCutsPastFortyBytes(t *testing.T) {
	forty := strings.Repeat("a", 40)
	if got := short([]byte(forty)); got != forty {
		t.Fatalf("short(40 bytes) = %q, want it whole", got)
	}
	if got := short([]byte(forty + "b")); got != forty+"..." {
		t.Fatalf("short(41 bytes) = %q, want 40 and ...", got)
	}
}
