package chain

import (
	"bytes"
	"strings"
	"testing"
)

// BIP-173 allows hrp characters 33..126: '!' and '~' are the edges.
func TestBech32HRPEdgeCharacters(t *testing.T) {
	for _, hrp := range []string{"!", "~", "a!~"} {
		s := bech32Encode(hrp, []byte{1, 2, 3})
		got, payload, err := bech32Decode(s)
		if err != nil || got != hrp || !bytes.Equal(payload, []byte{1, 2, 3}) {
			t.Fatalf("hrp %q: decode(%q) = %q, %v, %v", hrp, s, got, payload, err)
		}
	}
}

// A payload of 5 bytes fills 8 groups of 5 bits exactly: no padding group is added, and
// the last byte comes back.
func TestBech32PayloadWithoutPadding(t *testing.T) {
	payload := []byte{0xff, 0x01, 0x80, 0x7e, 0x55}
	s := bech32Encode("iota", payload)
	if want := len("iota1") + 8 + 6; len(s) != want {
		t.Fatalf("encode(5 bytes) = %q: %d characters, want %d (8 data groups, no padding)", s, len(s), want)
	}
	_, got, err := bech32Decode(s)
	if err != nil || !bytes.Equal(got, payload) {
		t.Fatalf("decode(%q) = %x, %v; want %x", s, got, err, payload)
	}
}

// Nine data groups are 45 bits: 5 bits of padding, a whole group too many (BIP-173).
func TestBech32FiveBitsOfPaddingRefused(t *testing.T) {
	data := make([]byte, 9)
	var sb strings.Builder
	sb.WriteString("iota1")
	for _, d := range append(data, bech32Checksum("iota", data)...) {
		sb.WriteByte(bech32Charset[d])
	}
	if _, payload, err := bech32Decode(sb.String()); err == nil || !strings.Contains(err.Error(), "padding length") {
		t.Fatalf("decode(%q) = %x, %v; want the invalid padding length refused", sb.String(), payload, err)
	}
}
