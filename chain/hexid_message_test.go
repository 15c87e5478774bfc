package chain

import (
	"errors"
	"strings"
	"testing"
)

// A hex ID of the wrong length names the digits it wants: twice its bytes.
func TestParseHexIDSaysTheDigitsItWants(t *testing.T) {
	var dst [4]byte
	err := parseHexID("block ID", "0xabcd", dst[:])
	if !errors.Is(err, ErrMalformedID) || !strings.Contains(err.Error(), "want 8 hex digits, got 4") {
		t.Fatalf("error %v, want it to say 8 hex digits wanted, 4 given", err)
	}
}

// Error messages quote an input of 80 characters whole, and cut a longer one.
func TestQuoteShortCutsPastEighty(t *testing.T) {
	eighty := strings.Repeat("a", 80)
	if got := quoteShort(eighty); got != `"`+eighty+`"` {
		t.Fatalf("quoteShort(80) = %s, want it whole", got)
	}
	if got := quoteShort(eighty + "b"); got != `"`+eighty+`"...` {
		t.Fatalf("quoteShort(81) = %s, want 80 and ...", got)
	}
}
