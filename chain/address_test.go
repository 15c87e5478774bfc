package chain

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"golang.org/x/crypto/blake2b"
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
	if a.Hex() != "0x00efdc112efe262b304bcf379b26c31bad029f616ee3ec4aa6345a366e4c9e43a3" {
		t.Errorf("hex form: %s", a.Hex())
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
	for _, s := range []string{a.Bech32("smr"), a.Bech32("iota"), a.Hex(), strings.ToUpper(a.Bech32("rms"))} {
		got, err := ParseAddress(s)
		if err != nil || got != a {
			t.Errorf("ParseAddress(%s) = %v, %v", s, got, err)
		}
	}
	bad := []string{
		"", "0x1234", "0x63" + strings.Repeat("00", 32), // unknown kind 0x63
		"0x00" + strings.Repeat("zz", 32),                                 // not hex
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

func TestEd25519AddressHashesKey(t *testing.T) {
	key := [32]byte{1}
	if a := Ed25519Address(key); a.Kind != AddressEd25519 || a.ID != blake2b.Sum256(key[:]) {
		t.Fatalf("Ed25519Address(%x) = %v", key, a)
	}
	if b := (Address{Kind: AddressNFT, ID: [32]byte{9}}).Bytes(); len(b) != 33 || b[0] != 16 || b[1] != 9 {
		t.Fatalf("Bytes() = %x", b)
	}
}

// TIP-31 vectors (stardust-wire.md section 5).
func TestAddressFromPublicKeyVector(t *testing.T) {
	a := Ed25519Address(hex32("6f1581709bb7b1ef030d210db18e3b0ba1c776fba65d8cdaad05415142d189f8"))
	if a.ID != hex32("efdc112efe262b304bcf379b26c31bad029f616ee3ec4aa6345a366e4c9e43a3") {
		t.Fatalf("hash %x", a.ID)
	}
	if got := a.Bech32("smr"); got != "smr1qrhacyfwlcnzkvzteumekfkrrwks98mpdm37cj4xx3drvmjvnep6xhcazjh" {
		t.Fatalf("smr: %s", got)
	}
	if got := a.Bech32("iota"); got != "iota1qrhacyfwlcnzkvzteumekfkrrwks98mpdm37cj4xx3drvmjvnep6xqgyzyx" {
		t.Fatalf("iota: %s", got)
	}
	oid := NewOutputID(TransactionID(hex32("52fdfc072182654f163f5f0f9a621d729566c74d10037c4d7bbb0407d1e2c649")), 0)
	alias := AliasAddress(AliasIDFromOutputID(oid))
	if got := alias.Bech32("smr"); got != "smr1prlgpsht03ekmghhex8v7y67a835uns8dtlxu807hj0v279c74kj7dzrr0a" {
		t.Fatalf("alias: %s", got)
	}
	if len(alias.Bech32("smr")) != 63 || len(alias.Bech32("iota")) != 64 {
		t.Fatal("lengths")
	}
}

func TestAddressKindCharacter(t *testing.T) {
	for kind, c := range map[AddressKind]byte{AddressEd25519: 'q', AddressAlias: 'p', AddressNFT: 'z'} {
		if s := (Address{Kind: kind}).Bech32("smr"); s[4] != c {
			t.Errorf("%s: %s, want %c after the separator", kind, s, c)
		}
	}
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
