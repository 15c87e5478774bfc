package chain

import "math/big"

// Test fixtures covering every output kind, condition, feature, unlock
// kind and payload, so round trips exercise the whole codec.

func fixtureAddr(b byte) Address { return Address{Kind: AddressEd25519, ID: [32]byte{b}} }

func ptr[T any](v T) *T { return &v }

func fixtureOutputs() []Output {
	alias := AliasID{0xa1}
	aliasAddr := AliasAddress(alias)
	return []Output{
		{Kind: OutputLegacy, Amount: 1_000_000, Address: ptr(fixtureAddr(1)), LegacyType: LegacySigLockedDustAllowance},
		{Kind: OutputBasic, Amount: 500, Address: ptr(fixtureAddr(2)),
			NativeTokens: []NativeToken{
				{ID: NewFoundryID(alias, 1, 0), Amount: big.NewInt(10)},
				{ID: NewFoundryID(alias, 2, 0), Amount: new(big.Int).Lsh(big.NewInt(1), 255)},
			},
			StorageDepositReturn: &StorageDepositReturn{ReturnAddress: fixtureAddr(3), Amount: 100},
			Timelock:             ptr(uint32(1_700_000_000)),
			Expiration:           &Expiration{ReturnAddress: fixtureAddr(4), UnixTime: 1_800_000_000},
			Sender:               ptr(fixtureAddr(5)), Tag: []byte("shop"), Metadata: []byte("{}")},
		{Kind: OutputAlias, Amount: 700, Address: ptr(fixtureAddr(6)), AliasID: alias, StateIndex: 3,
			StateController: ptr(fixtureAddr(6)), Governor: ptr(fixtureAddr(7)), FoundryCounter: 2,
			Sender: ptr(fixtureAddr(6)), Issuer: ptr(fixtureAddr(8)), Metadata: []byte("alias")},
		{Kind: OutputFoundry, Amount: 800, Address: &aliasAddr, SerialNumber: 2,
			FoundryID: NewFoundryID(alias, 2, 0), Metadata: []byte("foundry"),
			TokenScheme: TokenScheme{Minted: big.NewInt(1000), Melted: big.NewInt(10), MaxSupply: big.NewInt(5000)}},
		{Kind: OutputNFT, Amount: 900, Address: ptr(NFTAddress(NFTID{0xb2})), NFTID: NFTID{0xb1},
			Issuer: ptr(fixtureAddr(9)), Metadata: []byte("ipfs://x"), Tag: []byte("art")},
	}
}

func fixtureTransaction() *Transaction {
	return &Transaction{
		NetworkID: NetworkIDFromName("testnet"),
		Inputs: []Input{
			{TransactionID: TransactionID{1}, Index: 0}, {TransactionID: TransactionID{1}, Index: 1},
			{TransactionID: TransactionID{2}, Index: 5}, {TransactionID: TransactionID{3}, Index: 0},
		},
		InputsCommitment: [32]byte{0xcc},
		Outputs:          fixtureOutputs(),
		Payload:          &TaggedData{Tag: []byte("inner"), Data: []byte("payload")},
		Unlocks: []Unlock{
			{Kind: UnlockSignature, PublicKey: [32]byte{1}, Signature: [64]byte{2}},
			{Kind: UnlockReference, Reference: 0},
			{Kind: UnlockAlias, Reference: 1},
			{Kind: UnlockNFT, Reference: 2},
		},
	}
}

func fixtureMessages() []*Message {
	parents := []MessageID{{1}, {2}, {3}}
	return []*Message{
		{ProtocolVersion: ProtocolVersion, Parents: parents, Nonce: 42},
		{ProtocolVersion: ProtocolVersion, Parents: parents[:1], Nonce: 1,
			Payload: &TaggedData{Tag: []byte("hello"), Data: []byte("world")}},
		{ProtocolVersion: ProtocolVersion, Parents: parents, Nonce: 2, Payload: fixtureTransaction()},
		{ProtocolVersion: ProtocolVersion, Parents: parents[1:], Nonce: 3, Payload: &MilestonePayload{
			Index: 9, Timestamp: 1_664_582_400, PreviousMilestoneID: MilestoneID{7}, Parents: parents}},
	}
}
