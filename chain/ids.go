package chain

// MessageID is the BLAKE2b-256 hash of an encoded message.
type MessageID [32]byte

// TransactionID is the BLAKE2b-256 hash of an encoded transaction payload.
type TransactionID [32]byte

// MilestoneID is the BLAKE2b-256 hash of an encoded milestone payload.
type MilestoneID [32]byte

// AliasID identifies an alias chain across its output versions.
type AliasID [32]byte

// NFTID identifies an NFT chain across its output versions.
type NFTID [32]byte

func (id MessageID) String() string { return hexString(id[:]) }

// ParseMessageID parses the 0x-hex form produced by String.
func ParseMessageID(s string) (MessageID, error) { return parseText[MessageID](s) }

// MarshalText implements encoding.TextMarshaler.
func (id MessageID) MarshalText() ([]byte, error) { return []byte(id.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (id *MessageID) UnmarshalText(b []byte) error { return parseHexID("message id", string(b), id[:]) }

func (id TransactionID) String() string { return hexString(id[:]) }

// ParseTransactionID parses the 0x-hex form produced by String.
func ParseTransactionID(s string) (TransactionID, error) { return parseText[TransactionID](s) }

// MarshalText implements encoding.TextMarshaler.
func (id TransactionID) MarshalText() ([]byte, error) { return []byte(id.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (id *TransactionID) UnmarshalText(b []byte) error {
	return parseHexID("transaction id", string(b), id[:])
}

func (id MilestoneID) String() string { return hexString(id[:]) }

// ParseMilestoneID parses the 0x-hex form produced by String.
func ParseMilestoneID(s string) (MilestoneID, error) { return parseText[MilestoneID](s) }

// MarshalText implements encoding.TextMarshaler.
func (id MilestoneID) MarshalText() ([]byte, error) { return []byte(id.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (id *MilestoneID) UnmarshalText(b []byte) error {
	return parseHexID("milestone id", string(b), id[:])
}

func (id AliasID) String() string { return hexString(id[:]) }

// IsZero reports whether id is the placeholder of a freshly created alias.
func (id AliasID) IsZero() bool { return id == AliasID{} }

// ParseAliasID parses the 0x-hex form produced by String.
func ParseAliasID(s string) (AliasID, error) { return parseText[AliasID](s) }

// MarshalText implements encoding.TextMarshaler.
func (id AliasID) MarshalText() ([]byte, error) { return []byte(id.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (id *AliasID) UnmarshalText(b []byte) error { return parseHexID("alias id", string(b), id[:]) }

func (id NFTID) String() string { return hexString(id[:]) }

// IsZero reports whether id is the placeholder of a freshly minted NFT.
func (id NFTID) IsZero() bool { return id == NFTID{} }

// ParseNFTID parses the 0x-hex form produced by String.
func ParseNFTID(s string) (NFTID, error) { return parseText[NFTID](s) }

// MarshalText implements encoding.TextMarshaler.
func (id NFTID) MarshalText() ([]byte, error) { return []byte(id.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (id *NFTID) UnmarshalText(b []byte) error { return parseHexID("nft id", string(b), id[:]) }
