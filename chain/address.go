package chain

import (
	"encoding/hex"
	"fmt"
	"strings"

	"golang.org/x/crypto/blake2b"
)

// AddressKind is the type byte that prefixes an address.
type AddressKind uint8

// Address kinds (TIP-18).
const (
	AddressEd25519 AddressKind = 0
	AddressAlias   AddressKind = 8
	AddressNFT     AddressKind = 16
)

var addressKindNames = map[AddressKind]string{AddressEd25519: "ed25519", AddressAlias: "alias", AddressNFT: "nft"}

func (k AddressKind) String() string { return enumName(k, addressKindNames, "addressKind") }

func (k AddressKind) valid() bool {
	return k == AddressEd25519 || k == AddressAlias || k == AddressNFT
}

// Address is an Ed25519 public key hash, an alias ID or an NFT ID, told
// apart by Kind.
type Address struct {
	Kind AddressKind
	ID   [32]byte
}

// Ed25519Address derives the address that a public key unlocks.
func Ed25519Address(publicKey [32]byte) Address {
	return Address{Kind: AddressEd25519, ID: blake2b.Sum256(publicKey[:])}
}

// AliasAddress is the address controlled by an alias.
func AliasAddress(id AliasID) Address { return Address{Kind: AddressAlias, ID: id} }

// NFTAddress is the address controlled by an NFT.
func NFTAddress(id NFTID) Address { return Address{Kind: AddressNFT, ID: id} }

// Bytes returns kind byte ‖ ID, the payload of both textual forms.
func (a Address) Bytes() []byte {
	return append([]byte{byte(a.Kind)}, a.ID[:]...)
}

// Bech32 renders the address under the given human-readable part.
func (a Address) Bech32(hrp string) string { return bech32Encode(hrp, a.Bytes()) }

// Hex renders the address as 0x + hex of kind byte ‖ ID: the form that needs no
// network (logs, errors). Bech32 with the network's HRP is the form users see.
func (a Address) Hex() string { return hexString(a.Bytes()) }

// LocalAddress is an address together with its text under the network's HRP, the form
// the tables key addresses by: a request's address is parsed once and handed on as
// both, its kind for rules and its text for reads. The zero value is no address.
type LocalAddress struct {
	Address
	Text string
}

// Local pairs a with its text under hrp.
func (a Address) Local(hrp string) LocalAddress { return LocalAddress{Address: a, Text: a.Bech32(hrp)} }

// String is the address's text under the network's HRP.
func (a LocalAddress) String() string { return a.Text }

// IsZero reports whether a is no address.
func (a LocalAddress) IsZero() bool { return a.Text == "" }

// ParseAddress accepts a Bech32 address under any HRP, or the 0x-hex form
// of kind byte ‖ ID (66 hex digits).
func ParseAddress(s string) (Address, error) {
	if digits, ok := strings.CutPrefix(s, "0x"); ok {
		return parseHexAddress(s, digits)
	}
	_, payload, err := bech32Decode(s)
	if err != nil {
		return Address{}, fmt.Errorf("%w: %s: %w", ErrMalformedAddress, quoteShort(s), err)
	}
	return addressFromPayload(s, payload)
}

func parseHexAddress(s, digits string) (Address, error) {
	payload, err := hex.DecodeString(digits)
	if err != nil {
		return Address{}, fmt.Errorf("%w: %s: %w", ErrMalformedAddress, quoteShort(s), err)
	}
	return addressFromPayload(s, payload)
}

func addressFromPayload(s string, payload []byte) (Address, error) {
	if len(payload) != 33 {
		return Address{}, fmt.Errorf("%w: %s: want 33 payload bytes (kind + 32), got %d",
			ErrMalformedAddress, quoteShort(s), len(payload))
	}
	a := Address{Kind: AddressKind(payload[0])}
	if !a.Kind.valid() {
		return Address{}, fmt.Errorf("%w: %s: unknown address kind %d",
			ErrMalformedAddress, quoteShort(s), payload[0])
	}
	copy(a.ID[:], payload[1:])
	return a, nil
}
