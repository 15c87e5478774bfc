package chain_test

import (
	"bytes"
	"math/big"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Per-output rules of TIP-18, on outputs decoded alone (field paths start "output").

type outputCase struct {
	name, field, reason string
	out                 chain.Output
}

func runOutputCases(t *testing.T, cases []outputCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantField(t, decodeOutputErr(chain.EncodeOutput(c.out)), c.field, c.reason)
		})
	}
}

func with(o chain.Output, mod func(*chain.Output)) chain.Output {
	mod(&o)
	return o
}

func TestRejectOutputAmounts(t *testing.T) {
	runOutputCases(t, []outputCase{
		{"zero amount", "output.amount", "must be positive", with(fixtureBasic(), func(o *chain.Output) { o.Amount = 0 })},
		{"sdr zero", "output.unlockConditions[1].amount", "return amount 0 not in 1..500000",
			with(fixtureBasic(), func(o *chain.Output) { o.StorageDepositReturn.Amount = 0 })},
		{"sdr above amount", "output.unlockConditions[1].amount", "return amount 500001 not in 1..500000",
			with(fixtureBasic(), func(o *chain.Output) { o.StorageDepositReturn.Amount = 500_001 })},
		{"timelock zero", "output.unlockConditions[2].unixTime", "must be positive",
			with(fixtureBasic(), func(o *chain.Output) { o.Timelock = ptr(uint32(0)) })},
		{"expiration zero", "output.unlockConditions[3].unixTime", "must be positive",
			with(fixtureNFT(), func(o *chain.Output) { o.Expiration.UnixTime = 0 })},
		{"legacy zero", "output.amount", "must be positive",
			with(fixtureLegacyOutputs()[0], func(o *chain.Output) { o.Amount = 0 })},
	})
}

func TestRejectNativeTokens(t *testing.T) {
	many := make([]chain.NativeToken, chain.MaxNativeTokens+1)
	for i := range many {
		many[i] = chain.NativeToken{ID: chain.NewFoundryID(fixtureAliasID, uint32(i), 0), Amount: big.NewInt(1)}
	}
	runOutputCases(t, []outputCase{
		{"65 tokens", "output.nativeTokens", "65 native tokens exceed 64", with(fixtureBasic(), func(o *chain.Output) { o.NativeTokens = many })},
		{"unsorted", "output.nativeTokens[1].id", "not in ascending order", with(fixtureBasic(), func(o *chain.Output) {
			o.NativeTokens[0], o.NativeTokens[1] = o.NativeTokens[1], o.NativeTokens[0]
		})},
		{"duplicate", "output.nativeTokens[1].id", "or duplicate", with(fixtureBasic(), func(o *chain.Output) {
			o.NativeTokens[1].ID = o.NativeTokens[0].ID
		})},
		{"zero amount", "output.nativeTokens[1].amount", "must be positive", with(fixtureBasic(), func(o *chain.Output) {
			o.NativeTokens[1].Amount = new(big.Int)
		})},
	})
	o := fixtureBasic()
	o.NativeTokens = many[:chain.MaxNativeTokens]
	if _, err := chain.DecodeOutput(chain.EncodeOutput(o)); err != nil {
		t.Fatalf("64 tokens refused: %v", err)
	}
}

func TestRejectTokenScheme(t *testing.T) {
	scheme := func(minted, melted, max int64) chain.Output {
		return with(fixtureFoundry(), func(o *chain.Output) {
			o.TokenScheme = chain.TokenScheme{Minted: big.NewInt(minted), Melted: big.NewInt(melted), MaxSupply: big.NewInt(max)}
		})
	}
	runOutputCases(t, []outputCase{
		{"max zero", "output.tokenScheme.maximumSupply", "must be positive", scheme(0, 0, 0)},
		{"melted above minted", "output.tokenScheme.meltedTokens", "exceeds minted", scheme(5, 6, 10)},
		{"circulating above max", "output.tokenScheme.mintedTokens", "exceeds maximum supply", scheme(11, 0, 10)},
	})
	if _, err := chain.DecodeOutput(chain.EncodeOutput(scheme(20, 10, 10))); err != nil {
		t.Fatalf("minted - melted = max refused: %v", err)
	}
	raw := chain.EncodeOutput(fixtureFoundry())
	at := 1 + 8 + 1 + 38 + 32 + 4 // type, amount, one native token, serial number
	raw[at] = 1
	wantField(t, decodeOutputErr(raw), "output.tokenScheme.type", "unknown token scheme 1")
}

func TestRejectChainRules(t *testing.T) {
	ownAlias := chain.AliasAddress(fixtureAliasID)
	runOutputCases(t, []outputCase{
		{"new alias state index", "output.stateIndex", "must start with state index and foundry counter 0",
			with(fixtureAlias(), func(o *chain.Output) { o.AliasID = chain.AliasID{} })},
		{"new alias foundry counter", "output.stateIndex", "foundry counter 0",
			with(fixtureAlias(), func(o *chain.Output) { o.AliasID, o.StateIndex = chain.AliasID{}, 0 })},
		{"alias own state controller", "output.unlockConditions", "controlled by its own address",
			with(fixtureAlias(), func(o *chain.Output) { o.StateController = &ownAlias })},
		{"alias own governor", "output.unlockConditions", "controlled by its own address",
			with(fixtureAlias(), func(o *chain.Output) { o.Governor = &ownAlias })},
		{"nft owns itself", "output.unlockConditions", "owned by its own address",
			with(fixtureNFT(), func(o *chain.Output) { o.Address = ptr(chain.NFTAddress(fixtureNFTID)) })},
		{"foundry under ed25519", "output.unlockConditions[0].address", "must be an alias address",
			with(fixtureFoundry(), func(o *chain.Output) { o.Address = ptr(fixtureAddr(1)) })},
		{"legacy alias address", "output.address", "legacy outputs hold Ed25519 addresses",
			with(fixtureLegacyOutputs()[1], func(o *chain.Output) { o.Address = &ownAlias })},
	})
	// A new NFT may name the NFT address of the zero ID: the rule is about its own ID.
	o := with(fixtureNFT(), func(o *chain.Output) { o.NFTID = chain.NFTID{}; o.Address = ptr(chain.NFTAddress(chain.NFTID{})) })
	if _, err := chain.DecodeOutput(chain.EncodeOutput(o)); err != nil {
		t.Fatalf("new NFT refused: %v", err)
	}
}

func TestRejectFeatureLengths(t *testing.T) {
	long := func(n int) []byte { return bytes.Repeat([]byte("x"), n) }
	runOutputCases(t, []outputCase{
		{"tag 65", "output.features[2].tag", "too long: 65 bytes > 64", with(fixtureBasic(), func(o *chain.Output) { o.Tag = long(65) })},
		{"metadata 8193", "output.features[1].data", "too long: 8193 bytes > 8192",
			with(fixtureBasic(), func(o *chain.Output) { o.Metadata = long(8193) })},
		{"immutable metadata 8193", "output.immutableFeatures[1].data", "too long",
			with(fixtureNFT(), func(o *chain.Output) { o.ImmutableMetadata = long(8193) })},
		{"state metadata 8193", "output.stateMetadata", "too long: 8193 bytes > 8192",
			with(fixtureAlias(), func(o *chain.Output) { o.StateMetadata = long(8193) })},
	})
	for _, o := range []chain.Output{
		with(fixtureBasic(), func(o *chain.Output) { o.Tag, o.Metadata = long(64), long(8192) }),
		with(fixtureAlias(), func(o *chain.Output) { o.StateMetadata, o.ImmutableMetadata = long(8192), long(8192) }),
	} {
		if _, err := chain.DecodeOutput(chain.EncodeOutput(o)); err != nil {
			t.Fatalf("maximal lengths refused: %v", err)
		}
	}
}
