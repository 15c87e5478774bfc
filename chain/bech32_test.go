package chain

import (
	"errors"
	"strings"
	"testing"
)

// The bech32 internals: BIP-173's generic vectors and the padding rules, which need the
// 5-bit regrouping and the checksum that the exported API does not expose.

func TestBIP173Vectors(t *testing.T) {
	valid := []string{
		"A12UEL5L", "a12uel5l",
		"an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1tt5tgs",
		"abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw",
		"split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w",
	}
	for _, s := range valid {
		if _, data5, err := decodeChecksumOnly(s); err != nil {
			t.Errorf("valid %s rejected: %v (%v)", s, err, data5)
		}
	}
	invalid := []string{
		"\x201nwldj5", "pzry9x0s0muk", "1pzry9x0s0muk", "x1b4n0q5v", "li1dgmt3", "A1G7SGD8", "10a06t8",
		"an84characterslonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1569pvx",
	}
	for _, s := range invalid {
		if _, _, err := decodeChecksumOnly(s); err == nil {
			t.Errorf("invalid %q accepted", s)
		}
	}
}

// decodeChecksumOnly runs the bech32 checks without the 8-bit regrouping,
// which BIP-173's generic vectors (arbitrary 5-bit data) do not satisfy.
func decodeChecksumOnly(s string) (string, []byte, error) {
	_, _, err := bech32Decode(s)
	if err != nil && strings.Contains(err.Error(), "padding") {
		return "", nil, nil
	}
	return "", nil, err
}

// BIP-173: the bits padding the last 5-bit group must be zero and fewer than 5.
func TestBech32Padding(t *testing.T) {
	payload := Address{Kind: AddressAlias, ID: [32]byte{1}}.Bytes()
	data := convertBits(payload, 8, 5, true) // 53 groups: 265 bits, 1 of padding
	encode := func(data []byte) string {
		s := "smr1"
		for _, d := range append(data, bech32Checksum("smr", data)...) {
			s += string(bech32Charset[d])
		}
		return s
	}
	if _, err := ParseAddress(encode(data)); err != nil {
		t.Fatalf("hand-made encoding refused: %v", err)
	}
	nonZero := append([]byte(nil), data...)
	nonZero[len(nonZero)-1] |= 1
	if _, err := ParseAddress(encode(nonZero)); !errors.Is(err, ErrMalformedAddress) || !strings.Contains(err.Error(), "non-zero padding") {
		t.Fatalf("non-zero padding: %v", err)
	}
	if _, err := ParseAddress(encode(append(data, 0))); err == nil || !strings.Contains(err.Error(), "invalid padding length") {
		t.Fatalf("a group of padding: %v", err)
	}
}
