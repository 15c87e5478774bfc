package chain

import (
	"fmt"
	"math/big"
)

// OutputKind is the output type byte (TIP-18). Both Chrysalis output types collapse
// into OutputLegacy (see LegacyType); a Stardust transaction cannot create them.
type OutputKind uint8

// Output kinds.
const (
	OutputLegacy  OutputKind = 1
	OutputBasic   OutputKind = 3
	OutputAlias   OutputKind = 4
	OutputFoundry OutputKind = 5
	OutputNFT     OutputKind = 6
)

func (k OutputKind) String() string {
	switch k {
	case OutputLegacy:
		return "legacy"
	case OutputBasic:
		return "basic"
	case OutputAlias:
		return "alias"
	case OutputFoundry:
		return "foundry"
	case OutputNFT:
		return "nft"
	}
	return fmt.Sprintf("outputKind(%d)", uint8(k))
}

// Legacy (Chrysalis) output types carried in Output.LegacyType; they are also the
// type byte of the Chrysalis serialization.
const (
	LegacySigLockedSingle        uint8 = 0
	LegacySigLockedDustAllowance uint8 = 1
)

// TokenSchemeSimple is the only token scheme (the last FoundryID byte).
const TokenSchemeSimple uint8 = 0

// NativeToken is an amount of the token minted by foundry ID (a uint256).
type NativeToken struct {
	ID     FoundryID
	Amount *big.Int
}

// StorageDepositReturn is the seed schema's "dust return": the part of the amount that
// must go back to ReturnAddress when the output is spent.
type StorageDepositReturn struct {
	ReturnAddress Address
	Amount        uint64
}

// Expiration hands the output back to ReturnAddress after UnixTime.
type Expiration struct {
	ReturnAddress Address
	UnixTime      uint32
}

// TokenScheme is the simple token scheme of a foundry (uint256 values).
type TokenScheme struct {
	Minted    *big.Int
	Melted    *big.Int
	MaxSupply *big.Int
}

// Output holds an output losslessly. Which fields are meaningful depends on Kind:
//   - Address: the address unlock condition (basic, NFT, legacy); for an alias its
//     state controller (a copy of StateController); for a foundry the immutable alias
//     address unlock condition.
//   - StorageDepositReturn, Timelock, Expiration: basic and NFT.
//   - Sender, Tag (features), Metadata (the mutable metadata feature).
//   - Issuer and ImmutableMetadata are immutable features (alias, NFT; foundry metadata).
//   - AliasID, StateIndex, StateMetadata, FoundryCounter, StateController, Governor: alias.
//   - FoundryID (derived from Address and SerialNumber), SerialNumber, TokenScheme: foundry.
//   - NFTID: NFT. LegacyType: legacy.
//
// Chain IDs (AliasID, NFTID) are zero in the output that creates the chain.
type Output struct {
	Kind         OutputKind
	Amount       uint64
	NativeTokens []NativeToken
	Address      *Address

	StorageDepositReturn *StorageDepositReturn
	Timelock             *uint32
	Expiration           *Expiration

	Sender   *Address
	Tag      []byte
	Metadata []byte

	Issuer            *Address
	ImmutableMetadata []byte

	AliasID         AliasID
	StateIndex      uint32
	StateMetadata   []byte
	StateController *Address
	Governor        *Address
	FoundryCounter  uint32

	FoundryID    FoundryID
	SerialNumber uint32
	TokenScheme  TokenScheme

	NFTID NFTID

	LegacyType uint8
}
