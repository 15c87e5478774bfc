package node

import (
	"fmt"
	"strings"
	"testing"
)

// An error body in a log line is quoted whole up to 200 bytes, cut past them.
func TestSnippetCutsPastTwoHundredBytes(t *testing.T) {
	whole := strings.Repeat("a", 200)
	if got, want := snippet([]byte(whole)), fmt.Sprintf("%q", whole); got != want {
		t.Fatalf("snippet(200 bytes) = %s, want it whole", got)
	}
	if got, want := snippet([]byte(whole+"b")), fmt.Sprintf("%q...", whole); got != want {
		t.Fatalf("snippet(201 bytes) = %s, want 200 and ...", got)
	}
}
