package chain

import (
	"encoding/binary"

	"golang.org/x/crypto/blake2b"
)

// OutputID is a transaction ID followed by the output index (uint16 LE).
type OutputID [34]byte

// NewOutputID joins a transaction ID and an output index.
func NewOutputID(tx TransactionID, index uint16) OutputID {
	var id OutputID
	copy(id[:32], tx[:])
	binary.LittleEndian.PutUint16(id[32:], index)
	return id
}

// TransactionID returns the transaction that created the output.
func (id OutputID) TransactionID() TransactionID {
	var tx TransactionID
	copy(tx[:], id[:32])
	return tx
}

// Index returns the position of the output in its transaction.
func (id OutputID) Index() uint16 { return binary.LittleEndian.Uint16(id[32:]) }

func (id OutputID) String() string { return hexString(id[:]) }

// ParseOutputID parses the 0x-hex form produced by String.
func ParseOutputID(s string) (OutputID, error) { return parseText[OutputID](s) }

// MarshalText implements encoding.TextMarshaler.
func (id OutputID) MarshalText() ([]byte, error) { return []byte(id.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (id *OutputID) UnmarshalText(b []byte) error { return parseHexID("output id", string(b), id[:]) }

// FoundryID is 0x08 (the alias address kind) ‖ alias ID ‖ serial number
// (uint32 LE) ‖ token scheme byte. It doubles as the native token ID.
type FoundryID [38]byte

// NewFoundryID builds the ID of the foundry with the given serial number
// controlled by alias.
func NewFoundryID(alias AliasID, serial uint32, scheme uint8) FoundryID {
	var id FoundryID
	id[0] = byte(AddressAlias)
	copy(id[1:33], alias[:])
	binary.LittleEndian.PutUint32(id[33:37], serial)
	id[37] = scheme
	return id
}

// AliasID returns the controlling alias.
func (id FoundryID) AliasID() AliasID {
	var a AliasID
	copy(a[:], id[1:33])
	return a
}

// SerialNumber returns the foundry's serial number within its alias.
func (id FoundryID) SerialNumber() uint32 { return binary.LittleEndian.Uint32(id[33:37]) }

// TokenScheme returns the token scheme byte.
func (id FoundryID) TokenScheme() uint8 { return id[37] }

func (id FoundryID) String() string { return hexString(id[:]) }

// ParseFoundryID parses the 0x-hex form produced by String.
func ParseFoundryID(s string) (FoundryID, error) { return parseText[FoundryID](s) }

// MarshalText implements encoding.TextMarshaler.
func (id FoundryID) MarshalText() ([]byte, error) { return []byte(id.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (id *FoundryID) UnmarshalText(b []byte) error { return parseHexID("foundry id", string(b), id[:]) }

// AliasIDFromOutputID derives the ID an alias gets from the output that
// created it (the creating output itself carries the zero ID).
func AliasIDFromOutputID(id OutputID) AliasID { return blake2b.Sum256(id[:]) }

// NFTIDFromOutputID derives the ID an NFT gets from the output that minted it.
func NFTIDFromOutputID(id OutputID) NFTID { return blake2b.Sum256(id[:]) }

// ResolvedAliasID is an alias output's alias ID: its own, or, in the output that creates
// the alias (where the field is zero), the one derived from the output's ID.
func (o *Output) ResolvedAliasID(id OutputID) AliasID {
	return chainID(o.AliasID, id, AliasIDFromOutputID)
}

// ResolvedNFTID is an NFT output's NFT ID: its own, or, in the output that mints the NFT
// (where the field is zero), the one derived from the output's ID.
func (o *Output) ResolvedNFTID(id OutputID) NFTID { return chainID(o.NFTID, id, NFTIDFromOutputID) }

func chainID[T comparable](own T, id OutputID, derive func(OutputID) T) T {
	var zero T
	if own == zero {
		return derive(id)
	}
	return own
}
