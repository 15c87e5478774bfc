package chain_test

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"golang.org/x/crypto/blake2b"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Vectors from the IOTA Bech32 address TIP and its client libraries.
func TestAddressBech32Vectors(t *testing.T) {
	id, _ := hex.DecodeString("efdc112efe262b304bcf379b26c31bad029f616ee3ec4aa6345a366e4c9e43a3")
	var a chain.Address
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
		parsed, err := chain.ParseAddress(s)
		if err != nil || parsed != a {
			t.Errorf("ParseAddress(%s) = %v, %v", s, parsed, err)
		}
	}
	if a.Hex() != "0x00efdc112efe262b304bcf379b26c31bad029f616ee3ec4aa6345a366e4c9e43a3" {
		t.Errorf("hex form: %s", a.Hex())
	}
}

func TestParseAddressForms(t *testing.T) {
	a := chain.AliasAddress(chain.AliasID{1, 2, 3})
	for _, s := range []string{a.Bech32("smr"), a.Bech32("iota"), a.Hex(), strings.ToUpper(a.Bech32("rms"))} {
		got, err := chain.ParseAddress(s)
		if err != nil || got != a {
			t.Errorf("ParseAddress(%s) = %v, %v", s, got, err)
		}
	}
	bad := []string{
		"", "0x1234", "0x63" + strings.Repeat("00", 32), // unknown kind 0x63
		"0x00" + strings.Repeat("zz", 32),                                 // not hex
		"smr1qrhacyfwlcnzkvzteumekfkrrwks98mpdm37cj4xx3drvmjvnep6xhcazjj", // checksum
		"Smr1qrhacyfwlcnzkvzteumekfkrrwks98mpdm37cj4xx3drvmjvnep6xhcazjh", // mixed case
		chain.NFTAddress(chain.NFTID{}).Bech32("smr")[:20],
	}
	for _, s := range bad {
		if _, err := chain.ParseAddress(s); !errors.Is(err, chain.ErrMalformedAddress) {
			t.Errorf("ParseAddress(%q) err = %v, want ErrMalformedAddress", s, err)
		}
	}
}

func TestEd25519AddressHashesKey(t *testing.T) {
	key := [32]byte{1}
	if a := chain.Ed25519Address(key); a.Kind != chain.AddressEd25519 || a.ID != blake2b.Sum256(key[:]) {
		t.Fatalf("Ed25519Address(%x) = %v", key, a)
	}
	if b := (chain.Address{Kind: chain.AddressNFT, ID: [32]byte{9}}).Bytes(); len(b) != 33 || b[0] != 16 || b[1] != 9 {
		t.Fatalf("Bytes() = %x", b)
	}
}

// TIP-31 vectors (stardust-wire.md section 5).
func TestAddressFromPublicKeyVector(t *testing.T) {
	a := chain.Ed25519Address(hex32("6f1581709bb7b1ef030d210db18e3b0ba1c776fba65d8cdaad05415142d189f8"))
	if a.ID != hex32("efdc112efe262b304bcf379b26c31bad029f616ee3ec4aa6345a366e4c9e43a3") {
		t.Fatalf("hash %x", a.ID)
	}
	if got := a.Bech32("smr"); got != "smr1qrhacyfwlcnzkvzteumekfkrrwks98mpdm37cj4xx3drvmjvnep6xhcazjh" {
		t.Fatalf("smr: %s", got)
	}
	if got := a.Bech32("iota"); got != "iota1qrhacyfwlcnzkvzteumekfkrrwks98mpdm37cj4xx3drvmjvnep6xqgyzyx" {
		t.Fatalf("iota: %s", got)
	}
	oid := chain.NewOutputID(chain.TransactionID(hex32("52fdfc072182654f163f5f0f9a621d729566c74d10037c4d7bbb0407d1e2c649")), 0)
	alias := chain.AliasAddress(chain.AliasIDFromOutputID(oid))
	if got := alias.Bech32("smr"); got != "smr1prlgpsht03ekmghhex8v7y67a835uns8dtlxu807hj0v279c74kj7dzrr0a" {
		t.Fatalf("alias: %s", got)
	}
	if len(alias.Bech32("smr")) != 63 || len(alias.Bech32("iota")) != 64 {
		t.Fatal("lengths")
	}
}

func TestAddressKindCharacter(t *testing.T) {
	for kind, c := range map[chain.AddressKind]byte{chain.AddressEd25519: 'q', chain.AddressAlias: 'p', chain.AddressNFT: 'z'} {
		if s := (chain.Address{Kind: kind}).Bech32("smr"); s[4] != c {
			t.Errorf("%s: %s, want %c after the separator", kind, s, c)
		}
	}
}
