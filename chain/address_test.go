package chain

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

// Vectors from the IOTA Bech32 address TIP and its client libraries.
func TestAddressBech32Vectors(t *testing.T) {
	id, _ := hex.DecodeString("efdc112efe262b304bcf379b26c31bad029f616ee3ec4aa6345a366e4c9e43a3")
	var a Address
	copy(a.ID[:], id)
	want := map[string]string{
		"iota": "iota1qrhacyfwlcnzkvzteumekfkrrwks98mpdm37cj4xx3drvmjvnep6xqgyzyx",
		"atoi": "atoi1qrhacyfwlcnzkvzteumekfkrrwks98mpdm37cj4xx3drvmjvnep6x8x4r7t",
		"smr":  "smr1qrhacyfwlcnzkvzteumekfkrrwks98mpdm37cj4xx3drvmjvnep6xhcazjh",
		"rms":  "rms1qrhacyfwlcnzkvzteumekfkrrwks98mpdm37cj4xx3drvmjvnep6xrlkcfw",
	}
	for hrp, s := range want {
		if got := a.Bech32(hrp); got != s {
			t.Errorf("%s: got %s want %s", hrp, got, s)
		}
		parsed, err := ParseAddress(s)
		if err != nil || parsed != a {
			t.Errorf("ParseAddress(%s) = %v, %v", s, parsed, err)
		}
	}
	if a.String() != want["smr"] {
		t.Errorf("default HRP: %s", a)
	}
}

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

func TestParseAddressForms(t *testing.T) {
	a := AliasAddress(AliasID{1, 2, 3})
	for _, s := range []string{a.String(), a.Bech32("iota"), a.Hex(), strings.ToUpper(a.Bech32("rms"))} {
		got, err := ParseAddress(s)
		if err != nil || got != a {
			t.Errorf("ParseAddress(%s) = %v, %v", s, got, err)
		}
	}
	bad := []string{
		"", "0x1234", "0x63" + strings.Repeat("00", 32), // unknown kind 0x63
		"smr1qrhacyfwlcnzkvzteumekfkrrwks98mpdm37cj4xx3drvmjvnep6xhcazjj", // checksum
		"Smr1qrhacyfwlcnzkvzteumekfkrrwks98mpdm37cj4xx3drvmjvnep6xhcazjh", // mixed case
		NFTAddress(NFTID{}).Bech32("smr")[:20],
	}
	for _, s := range bad {
		if _, err := ParseAddress(s); !errors.Is(err, ErrMalformedAddress) {
			t.Errorf("ParseAddress(%q) err = %v, want ErrMalformedAddress", s, err)
		}
	}
}

func TestAddressText(t *testing.T) {
	a := NFTAddress(NFTID{9})
	b, _ := a.MarshalText()
	var back Address
	if err := back.UnmarshalText(b); err != nil || back != a {
		t.Fatalf("text round trip: %v %v", back, err)
	}
	if !strings.HasPrefix(string(b), "smr1") {
		t.Fatalf("not bech32: %s", b)
	}
	key := [32]byte{1}
	if Ed25519Address(key).Kind != AddressEd25519 || Ed25519Address(key).ID == key {
		t.Fatal("Ed25519Address must hash the public key")
	}
}
