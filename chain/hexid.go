package chain

import (
	"encoding/hex"
	"fmt"
	"strings"
)

// hexString renders bytes the way the node API does: 0x + lowercase hex.
func hexString(b []byte) string {
	return "0x" + hex.EncodeToString(b)
}

// parseText parses an ID's 0x-hex text form through its UnmarshalText, so an ID type
// states its name for errors once.
func parseText[T any, P interface {
	*T
	UnmarshalText([]byte) error
}](s string) (T, error) {
	var id T
	err := P(&id).UnmarshalText([]byte(s))
	return id, err
}

// parseHexID fills dst from a 0x-prefixed hex string of exactly len(dst)
// bytes. what names the ID kind so the error says which field was bad.
func parseHexID(what, s string, dst []byte) error {
	digits, ok := strings.CutPrefix(s, "0x")
	if !ok {
		return fmt.Errorf("%w: %s %s: missing 0x prefix", ErrMalformedID, what, quoteShort(s))
	}
	if len(digits) != 2*len(dst) {
		return fmt.Errorf("%w: %s %s: want %d hex digits, got %d",
			ErrMalformedID, what, quoteShort(s), 2*len(dst), len(digits))
	}
	if _, err := hex.Decode(dst, []byte(digits)); err != nil {
		return fmt.Errorf("%w: %s %s: %w", ErrMalformedID, what, quoteShort(s), err)
	}
	return nil
}

// quoteShort keeps error messages readable when handed a huge bogus input.
func quoteShort(s string) string {
	const limit = 80
	if len(s) > limit {
		return fmt.Sprintf("%q...", s[:limit])
	}
	return fmt.Sprintf("%q", s)
}
