package chain_test

import (
	"bytes"
	"crypto/ed25519"
	"math/big"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Fixtures covering every output kind with every unlock condition, feature and
// immutable feature it may carry, every unlock kind, every payload kind and both
// milestone options, so round trips exercise the whole codec.

func fixtureAddr(b byte) chain.Address {
	return chain.Address{Kind: chain.AddressEd25519, ID: [32]byte{b}}
}

var (
	fixtureAliasID = chain.AliasID{0xa1}
	fixtureNFTID   = chain.NFTID{0xb1}
)

// fixtureKey returns a deterministic Ed25519 key; distinct i give distinct keys.
func fixtureKey(i byte) ed25519.PrivateKey {
	return ed25519.NewKeyFromSeed(bytes.Repeat([]byte{i}, ed25519.SeedSize))
}

func publicKey(k ed25519.PrivateKey) [32]byte { return [32]byte(k.Public().(ed25519.PublicKey)) }

func fixtureTokens() []chain.NativeToken {
	return []chain.NativeToken{
		{ID: chain.NewFoundryID(fixtureAliasID, 1, chain.TokenSchemeSimple), Amount: big.NewInt(10)},
		{ID: chain.NewFoundryID(fixtureAliasID, 2, chain.TokenSchemeSimple), Amount: new(big.Int).Lsh(big.NewInt(1), 255)},
	}
}

func fixtureBasic() chain.Output {
	return chain.Output{Kind: chain.OutputBasic, Amount: 500_000, NativeTokens: fixtureTokens(), Address: ptr(fixtureAddr(2)),
		StorageDepositReturn: &chain.StorageDepositReturn{ReturnAddress: fixtureAddr(3), Amount: 100},
		Timelock:             ptr(uint32(1_700_000_000)),
		Expiration:           &chain.Expiration{ReturnAddress: fixtureAddr(4), UnixTime: 1_800_000_000},
		Sender:               ptr(fixtureAddr(5)), Metadata: []byte("{}"), Tag: []byte("shop")}
}

func fixtureAlias() chain.Output {
	return chain.Output{Kind: chain.OutputAlias, Amount: 700_000, NativeTokens: fixtureTokens()[:1],
		Address: ptr(fixtureAddr(6)), AliasID: fixtureAliasID, StateIndex: 3, StateMetadata: []byte("state"),
		FoundryCounter: 2, StateController: ptr(fixtureAddr(6)), Governor: ptr(chain.NFTAddress(fixtureNFTID)),
		Sender: ptr(fixtureAddr(6)), Metadata: []byte("alias"),
		Issuer: ptr(fixtureAddr(8)), ImmutableMetadata: []byte("born")}
}

func fixtureFoundry() chain.Output {
	return chain.Output{Kind: chain.OutputFoundry, Amount: 800_000, NativeTokens: fixtureTokens()[1:],
		Address: ptr(chain.AliasAddress(fixtureAliasID)), SerialNumber: 2,
		FoundryID:   chain.NewFoundryID(fixtureAliasID, 2, chain.TokenSchemeSimple),
		TokenScheme: chain.TokenScheme{Minted: big.NewInt(1000), Melted: big.NewInt(10), MaxSupply: big.NewInt(5000)},
		Metadata:    []byte("foundry"), ImmutableMetadata: []byte("token")}
}

func fixtureNFT() chain.Output {
	return chain.Output{Kind: chain.OutputNFT, Amount: 900_000, Address: ptr(chain.AliasAddress(fixtureAliasID)), NFTID: fixtureNFTID,
		StorageDepositReturn: &chain.StorageDepositReturn{ReturnAddress: fixtureAddr(3), Amount: 900_000},
		Timelock:             ptr(uint32(1)),
		Expiration:           &chain.Expiration{ReturnAddress: chain.NFTAddress(chain.NFTID{0xb2}), UnixTime: 2},
		Sender:               ptr(fixtureAddr(5)), Metadata: []byte("ipfs://x"), Tag: []byte("art"),
		Issuer: ptr(chain.AliasAddress(fixtureAliasID)), ImmutableMetadata: []byte("immutable")}
}

// fixtureOutputs holds one output of each Stardust kind, plus a newly created alias and
// NFT (zero IDs) and a minimal basic output.
func fixtureOutputs() []chain.Output {
	newAlias := chain.Output{Kind: chain.OutputAlias, Amount: 1, Address: ptr(fixtureAddr(1)),
		StateController: ptr(fixtureAddr(1)), Governor: ptr(fixtureAddr(1))}
	newNFT := chain.Output{Kind: chain.OutputNFT, Amount: 1, Address: ptr(fixtureAddr(1))}
	minimal := chain.Output{Kind: chain.OutputBasic, Amount: 1, Address: ptr(fixtureAddr(1))}
	return []chain.Output{fixtureBasic(), fixtureAlias(), fixtureFoundry(), fixtureNFT(), newAlias, newNFT, minimal}
}

// fixtureLegacyOutputs are Chrysalis outputs: DecodeOutput reads them alone, a
// transaction never carries them.
func fixtureLegacyOutputs() []chain.Output {
	return []chain.Output{
		{Kind: chain.OutputLegacy, LegacyType: chain.LegacySigLockedSingle, Amount: 5, Address: ptr(fixtureAddr(1))},
		{Kind: chain.OutputLegacy, LegacyType: chain.LegacySigLockedDustAllowance, Amount: 1_000_000, Address: ptr(fixtureAddr(2))},
	}
}

// fixtureTransaction spends four inputs with one unlock of each kind.
func fixtureTransaction() *chain.Transaction {
	return &chain.Transaction{
		NetworkID: chain.NetworkIDFromName("testnet-1"),
		Inputs: []chain.Input{
			{TransactionID: chain.TransactionID{1}, Index: 0}, {TransactionID: chain.TransactionID{1}, Index: 1},
			{TransactionID: chain.TransactionID{2}, Index: 5}, {TransactionID: chain.TransactionID{3}, Index: 127},
		},
		InputsCommitment: [32]byte{0xcc},
		Outputs:          fixtureOutputs()[:4],
		Payload:          &chain.TaggedData{Tag: []byte("inner"), Data: []byte("payload")},
		Unlocks: []chain.Unlock{
			{Kind: chain.UnlockSignature, PublicKey: publicKey(fixtureKey(1)), Signature: [64]byte{2}},
			{Kind: chain.UnlockReference, Reference: 0},
			{Kind: chain.UnlockAlias, Reference: 1},
			{Kind: chain.UnlockNFT, Reference: 2},
		},
	}
}

// fixtureMilestonePayload is a signed milestone with metadata, a receipt and a
// protocol-parameters option.
func fixtureMilestonePayload() *chain.MilestonePayload {
	mp := &chain.MilestonePayload{Index: 9, Timestamp: 1_664_582_400, ProtocolVersion: chain.ProtocolVersion,
		PreviousMilestoneID: chain.MilestoneID{7}, Parents: []chain.MessageID{{1}, {2}, {3}},
		InclusionMerkleRoot: [32]byte{0x11}, AppliedMerkleRoot: [32]byte{0x22}, Metadata: []byte("coordinator"),
		Receipt: &chain.Receipt{MigratedAt: 8, Final: true,
			Funds: []chain.MigratedFunds{
				{TailTransactionHash: [49]byte{1}, Address: fixtureAddr(1), Deposit: chain.MinMigratedDeposit},
				{TailTransactionHash: [49]byte{2}, Address: fixtureAddr(2), Deposit: 5_000_000},
			},
			Transaction: chain.TreasuryTransaction{InputMilestoneID: chain.MilestoneID{6}, OutputAmount: 42}},
		ProtocolParams: &chain.ProtocolParamsOption{TargetMilestoneIndex: 39, ProtocolVersion: chain.ProtocolVersion,
			Params: chain.EncodeProtocolParameters(chain.Shimmer().Params)},
	}
	mp.Sign(fixtureKey(1), fixtureKey(2), fixtureKey(3))
	return mp
}

// fixtureKeys verifies fixtureMilestonePayload: three all-time keys, threshold 2.
func fixtureKeys() chain.MilestoneKeys {
	return chain.MilestoneKeys{Threshold: 2, Ranges: []chain.KeyRange{chain.Signer(fixtureKey(1)), chain.Signer(fixtureKey(2)), chain.Signer(fixtureKey(3))}}
}

// fixtureMessages holds a message of each payload kind, and one without payload.
func fixtureMessages() []*chain.Message {
	parents := []chain.MessageID{{1}, {2}, {3}}
	return []*chain.Message{
		{ProtocolVersion: chain.ProtocolVersion, Parents: parents, Nonce: 42},
		{ProtocolVersion: chain.ProtocolVersion, Parents: parents[:1], Nonce: 1,
			Payload: &chain.TaggedData{Tag: []byte("hello"), Data: []byte("world")}},
		{ProtocolVersion: chain.ProtocolVersion, Parents: parents, Nonce: 1<<64 - 1, Payload: fixtureTransaction()},
		{ProtocolVersion: chain.ProtocolVersion, Parents: parents, Payload: fixtureMilestonePayload()},
	}
}

func newMessage(p chain.Payload, parents ...chain.MessageID) *chain.Message {
	if len(parents) == 0 {
		parents = []chain.MessageID{{1}}
	}
	return &chain.Message{ProtocolVersion: chain.ProtocolVersion, Parents: parents, Payload: p}
}

// encodeTx encodes a message carrying the fixture transaction changed by mod.
func encodeTx(mod func(tx *chain.Transaction)) []byte {
	tx := fixtureTransaction()
	mod(tx)
	return chain.EncodeMessage(newMessage(tx))
}
