package chain

import (
	"bytes"
	"crypto/ed25519"
	"math/big"
)

// Fixtures covering every output kind with every unlock condition, feature and
// immutable feature it may carry, every unlock kind, every payload kind and both
// milestone options, so round trips exercise the whole codec.

func fixtureAddr(b byte) Address { return Address{Kind: AddressEd25519, ID: [32]byte{b}} }

var (
	fixtureAliasID = AliasID{0xa1}
	fixtureNFTID   = NFTID{0xb1}
)

// fixtureKey returns a deterministic Ed25519 key; distinct i give distinct keys.
func fixtureKey(i byte) ed25519.PrivateKey {
	return ed25519.NewKeyFromSeed(bytes.Repeat([]byte{i}, ed25519.SeedSize))
}

func publicKey(k ed25519.PrivateKey) [32]byte { return [32]byte(k.Public().(ed25519.PublicKey)) }

func fixtureTokens() []NativeToken {
	return []NativeToken{
		{ID: NewFoundryID(fixtureAliasID, 1, TokenSchemeSimple), Amount: big.NewInt(10)},
		{ID: NewFoundryID(fixtureAliasID, 2, TokenSchemeSimple), Amount: new(big.Int).Lsh(big.NewInt(1), 255)},
	}
}

func fixtureBasic() Output {
	return Output{Kind: OutputBasic, Amount: 500_000, NativeTokens: fixtureTokens(), Address: ptr(fixtureAddr(2)),
		StorageDepositReturn: &StorageDepositReturn{ReturnAddress: fixtureAddr(3), Amount: 100},
		Timelock:             ptr(uint32(1_700_000_000)),
		Expiration:           &Expiration{ReturnAddress: fixtureAddr(4), UnixTime: 1_800_000_000},
		Sender:               ptr(fixtureAddr(5)), Metadata: []byte("{}"), Tag: []byte("shop")}
}

func fixtureAlias() Output {
	return Output{Kind: OutputAlias, Amount: 700_000, NativeTokens: fixtureTokens()[:1],
		Address: ptr(fixtureAddr(6)), AliasID: fixtureAliasID, StateIndex: 3, StateMetadata: []byte("state"),
		FoundryCounter: 2, StateController: ptr(fixtureAddr(6)), Governor: ptr(NFTAddress(fixtureNFTID)),
		Sender: ptr(fixtureAddr(6)), Metadata: []byte("alias"),
		Issuer: ptr(fixtureAddr(8)), ImmutableMetadata: []byte("born")}
}

func fixtureFoundry() Output {
	return Output{Kind: OutputFoundry, Amount: 800_000, NativeTokens: fixtureTokens()[1:],
		Address: ptr(AliasAddress(fixtureAliasID)), SerialNumber: 2,
		FoundryID:   NewFoundryID(fixtureAliasID, 2, TokenSchemeSimple),
		TokenScheme: TokenScheme{Minted: big.NewInt(1000), Melted: big.NewInt(10), MaxSupply: big.NewInt(5000)},
		Metadata:    []byte("foundry"), ImmutableMetadata: []byte("token")}
}

func fixtureNFT() Output {
	return Output{Kind: OutputNFT, Amount: 900_000, Address: ptr(AliasAddress(fixtureAliasID)), NFTID: fixtureNFTID,
		StorageDepositReturn: &StorageDepositReturn{ReturnAddress: fixtureAddr(3), Amount: 900_000},
		Timelock:             ptr(uint32(1)),
		Expiration:           &Expiration{ReturnAddress: NFTAddress(NFTID{0xb2}), UnixTime: 2},
		Sender:               ptr(fixtureAddr(5)), Metadata: []byte("ipfs://x"), Tag: []byte("art"),
		Issuer: ptr(AliasAddress(fixtureAliasID)), ImmutableMetadata: []byte("immutable")}
}

// fixtureOutputs holds one output of each Stardust kind, plus a newly created alias and
// NFT (zero IDs) and a minimal basic output.
func fixtureOutputs() []Output {
	newAlias := Output{Kind: OutputAlias, Amount: 1, Address: ptr(fixtureAddr(1)),
		StateController: ptr(fixtureAddr(1)), Governor: ptr(fixtureAddr(1))}
	newNFT := Output{Kind: OutputNFT, Amount: 1, Address: ptr(fixtureAddr(1))}
	minimal := Output{Kind: OutputBasic, Amount: 1, Address: ptr(fixtureAddr(1))}
	return []Output{fixtureBasic(), fixtureAlias(), fixtureFoundry(), fixtureNFT(), newAlias, newNFT, minimal}
}

// fixtureLegacyOutputs are Chrysalis outputs: DecodeOutput reads them alone, a
// transaction never carries them.
func fixtureLegacyOutputs() []Output {
	return []Output{
		{Kind: OutputLegacy, LegacyType: LegacySigLockedSingle, Amount: 5, Address: ptr(fixtureAddr(1))},
		{Kind: OutputLegacy, LegacyType: LegacySigLockedDustAllowance, Amount: 1_000_000, Address: ptr(fixtureAddr(2))},
	}
}

// fixtureTransaction spends four inputs with one unlock of each kind.
func fixtureTransaction() *Transaction {
	return &Transaction{
		NetworkID: NetworkIDFromName("testnet-1"),
		Inputs: []Input{
			{TransactionID: TransactionID{1}, Index: 0}, {TransactionID: TransactionID{1}, Index: 1},
			{TransactionID: TransactionID{2}, Index: 5}, {TransactionID: TransactionID{3}, Index: 127},
		},
		InputsCommitment: [32]byte{0xcc},
		Outputs:          fixtureOutputs()[:4],
		Payload:          &TaggedData{Tag: []byte("inner"), Data: []byte("payload")},
		Unlocks: []Unlock{
			{Kind: UnlockSignature, PublicKey: publicKey(fixtureKey(1)), Signature: [64]byte{2}},
			{Kind: UnlockReference, Reference: 0},
			{Kind: UnlockAlias, Reference: 1},
			{Kind: UnlockNFT, Reference: 2},
		},
	}
}

// fixtureMilestonePayload is a signed milestone with metadata, a receipt and a
// protocol-parameters option.
func fixtureMilestonePayload() *MilestonePayload {
	mp := &MilestonePayload{Index: 9, Timestamp: 1_664_582_400, ProtocolVersion: ProtocolVersion,
		PreviousMilestoneID: MilestoneID{7}, Parents: []MessageID{{1}, {2}, {3}},
		InclusionMerkleRoot: [32]byte{0x11}, AppliedMerkleRoot: [32]byte{0x22}, Metadata: []byte("coordinator"),
		Receipt: &Receipt{MigratedAt: 8, Final: true,
			Funds: []MigratedFunds{
				{TailTransactionHash: [49]byte{1}, Address: fixtureAddr(1), Deposit: MinMigratedDeposit},
				{TailTransactionHash: [49]byte{2}, Address: fixtureAddr(2), Deposit: 5_000_000},
			},
			Transaction: TreasuryTransaction{InputMilestoneID: MilestoneID{6}, OutputAmount: 42}},
		ProtocolParams: &ProtocolParamsOption{TargetMilestoneIndex: 39, ProtocolVersion: ProtocolVersion,
			Params: EncodeProtocolParameters(Shimmer().Params)},
	}
	mp.Sign(fixtureKey(1), fixtureKey(2), fixtureKey(3))
	return mp
}

// fixtureKeys verifies fixtureMilestonePayload: three all-time keys, threshold 2.
func fixtureKeys() MilestoneKeys {
	return MilestoneKeys{Threshold: 2, Ranges: []KeyRange{Signer(fixtureKey(1)), Signer(fixtureKey(2)), Signer(fixtureKey(3))}}
}

// fixtureMessages holds a message of each payload kind, and one without payload.
func fixtureMessages() []*Message {
	parents := []MessageID{{1}, {2}, {3}}
	return []*Message{
		{ProtocolVersion: ProtocolVersion, Parents: parents, Nonce: 42},
		{ProtocolVersion: ProtocolVersion, Parents: parents[:1], Nonce: 1,
			Payload: &TaggedData{Tag: []byte("hello"), Data: []byte("world")}},
		{ProtocolVersion: ProtocolVersion, Parents: parents, Nonce: 1<<64 - 1, Payload: fixtureTransaction()},
		{ProtocolVersion: ProtocolVersion, Parents: parents, Payload: fixtureMilestonePayload()},
	}
}

func newMessage(p Payload, parents ...MessageID) *Message {
	if len(parents) == 0 {
		parents = []MessageID{{1}}
	}
	return &Message{ProtocolVersion: ProtocolVersion, Parents: parents, Payload: p}
}

// encodeTx encodes a message carrying the fixture transaction changed by mod.
func encodeTx(mod func(tx *Transaction)) []byte {
	tx := fixtureTransaction()
	mod(tx)
	return EncodeMessage(newMessage(tx))
}
