package tip25

import (
	"math/big"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// The fixture covers what the real data lacks: every output kind, unlock condition,
// feature, immutable feature, address kind, unlock kind and milestone option.

func id32(b byte) (id [32]byte) {
	for i := range id {
		id[i] = b + byte(i)
	}
	return id
}

func ed(b byte) *chain.Address    { return &chain.Address{Kind: chain.AddressEd25519, ID: id32(b)} }
func alias(b byte) *chain.Address { return &chain.Address{Kind: chain.AddressAlias, ID: id32(b)} }
func nft(b byte) *chain.Address   { return &chain.Address{Kind: chain.AddressNFT, ID: id32(b)} }

// tokens returns two native tokens in ascending ID order; the second amount needs all
// 256 bits, the first only a few (minimal hex "0x2a").
func tokens() []chain.NativeToken {
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	return []chain.NativeToken{
		{ID: chain.NewFoundryID(id32(0x40), 1, chain.TokenSchemeSimple), Amount: big.NewInt(42)},
		{ID: chain.NewFoundryID(id32(0x41), 7, chain.TokenSchemeSimple), Amount: max},
	}
}

func fixtureOutputs() map[string]chain.Output {
	u32 := func(v uint32) *uint32 { return &v }
	return map[string]chain.Output{
		"basic minimal": {Kind: chain.OutputBasic, Amount: 42600, Address: ed(1)},
		"basic everything": {Kind: chain.OutputBasic, Amount: 1 << 62, NativeTokens: tokens(), Address: ed(2),
			StorageDepositReturn: &chain.StorageDepositReturn{ReturnAddress: *alias(3), Amount: 50800},
			Timelock:             u32(1_700_000_000), Expiration: &chain.Expiration{ReturnAddress: *nft(4), UnixTime: 1_800_000_000},
			Sender: nft(5), Metadata: []byte("metadata"), Tag: []byte("tag")},
		"alias new": {Kind: chain.OutputAlias, Amount: 53700, StateController: ed(6), Governor: ed(7)},
		"alias everything": {Kind: chain.OutputAlias, Amount: 1_000_000, NativeTokens: tokens(), AliasID: id32(0x40),
			StateIndex: 9, StateMetadata: []byte{0, 1, 2}, FoundryCounter: 3, StateController: alias(8), Governor: nft(9),
			Sender: ed(10), Metadata: []byte{0xff}, Issuer: nft(11), ImmutableMetadata: []byte("imm")},
		"foundry minimal": {Kind: chain.OutputFoundry, Amount: 60000, SerialNumber: 1, Address: alias(0x40),
			TokenScheme: chain.TokenScheme{Minted: big.NewInt(0), Melted: big.NewInt(0), MaxSupply: big.NewInt(1)}},
		"foundry everything": {Kind: chain.OutputFoundry, Amount: 70000, NativeTokens: tokens()[:1], SerialNumber: 1,
			Address:     alias(0x40),
			TokenScheme: chain.TokenScheme{Minted: big.NewInt(1000), Melted: big.NewInt(10), MaxSupply: new(big.Int).Lsh(big.NewInt(1), 200)},
			Metadata:    []byte("mutable"), ImmutableMetadata: []byte(`{"standard":"IRC30"}`)},
		"nft new": {Kind: chain.OutputNFT, Amount: 188400, Address: ed(12), ImmutableMetadata: []byte("image")},
		"nft everything": {Kind: chain.OutputNFT, Amount: 2_000_000, NativeTokens: tokens(), NFTID: id32(0x50), Address: alias(13),
			StorageDepositReturn: &chain.StorageDepositReturn{ReturnAddress: *ed(14), Amount: 2_000_000},
			Timelock:             u32(1), Expiration: &chain.Expiration{ReturnAddress: *ed(15), UnixTime: 4_294_967_295},
			Sender: ed(16), Metadata: []byte{1}, Tag: []byte("t"), Issuer: alias(17), ImmutableMetadata: []byte{2}},
	}
}

// fixtureTransaction spends four inputs with the four unlock kinds and creates every
// fixture output, with a tagged-data payload in its essence.
func fixtureTransaction(outputs []chain.Output) *chain.Transaction {
	tx := &chain.Transaction{NetworkID: chain.NetworkIDFromName("shimmer"), InputsCommitment: id32(0x60), Outputs: outputs,
		Payload: &chain.TaggedData{Tag: []byte("fixture"), Data: []byte("data")}}
	for i := range 4 {
		tx.Inputs = append(tx.Inputs, chain.Input{TransactionID: id32(0x70), Index: uint16(i)})
	}
	tx.Unlocks = []chain.Unlock{{Kind: chain.UnlockSignature, PublicKey: id32(0x80), Signature: [64]byte{1, 2, 3}},
		{Kind: chain.UnlockReference, Reference: 0}, {Kind: chain.UnlockAlias, Reference: 1}, {Kind: chain.UnlockNFT, Reference: 2}}
	return tx
}

// fixtureMilestone carries metadata and both options: a receipt and new parameters.
func fixtureMilestone(parents []chain.MessageID) *chain.MilestonePayload {
	var tail1, tail2 [49]byte
	tail1[0], tail2[0] = 1, 2
	return &chain.MilestonePayload{Index: 100, Timestamp: 1_664_385_901, ProtocolVersion: chain.ProtocolVersion,
		PreviousMilestoneID: id32(0x90), Parents: parents, InclusionMerkleRoot: id32(0x91), AppliedMerkleRoot: id32(0x92),
		Metadata: []byte("milestone metadata"),
		Receipt: &chain.Receipt{MigratedAt: 99, Final: true, Funds: []chain.MigratedFunds{
			{TailTransactionHash: tail1, Address: *ed(20), Deposit: 1_000_000},
			{TailTransactionHash: tail2, Address: *ed(21), Deposit: 1 << 60}},
			Transaction: chain.TreasuryTransaction{InputMilestoneID: id32(0x93), OutputAmount: 4_600_000_000_000_000}},
		ProtocolParams: &chain.ProtocolParamsOption{TargetMilestoneIndex: 110, ProtocolVersion: 2,
			Params: chain.EncodeProtocolParameters(chain.Shimmer().Params)},
		Signatures: []chain.MilestoneSignature{{PublicKey: id32(0xa0), Signature: [64]byte{9}}, {PublicKey: id32(0xb0)}}}
}

// fixtureBlocks returns blocks of every payload kind. iotajs says whether iota.js can
// serialize the block's JSON: it cannot when a tagged data has no tag (see README).
func fixtureBlocks(t *testing.T) (blocks map[string]*chain.Message, iotajs map[string]bool) {
	parents := []chain.MessageID{id32(0x01), id32(0x02)}
	var outs []chain.Output
	for _, name := range sortedNames(fixtureOutputs()) {
		outs = append(outs, fixtureOutputs()[name])
	}
	msg := func(p chain.Payload, nonce uint64) *chain.Message {
		return &chain.Message{ProtocolVersion: chain.ProtocolVersion, Parents: parents, Payload: p, Nonce: nonce}
	}
	blocks = map[string]*chain.Message{
		"no payload":             msg(nil, 1<<63+5),
		"tagged data":            msg(&chain.TaggedData{Tag: []byte("tag"), Data: []byte("hello world")}, 1),
		"tagged data, tag only":  msg(&chain.TaggedData{Tag: []byte("tag")}, 2),
		"tagged data, data only": msg(&chain.TaggedData{Data: []byte("data")}, 3),
		"tagged data, empty":     msg(&chain.TaggedData{}, 4),
		"transaction":            msg(fixtureTransaction(outs), 5),
		"milestone":              msg(fixtureMilestone(parents), 0),
	}
	iotajs = map[string]bool{"no payload": true, "tagged data": true, "tagged data, tag only": true,
		"transaction": true, "milestone": true}
	for name, m := range blocks {
		if _, err := chain.DecodeMessage(m.Encode()); err != nil {
			t.Fatalf("fixture block %q is not valid: %v", name, err)
		}
	}
	return blocks, iotajs
}

func sortedNames[V any](m map[string]V) []string {
	var names []string
	for name := range m {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
