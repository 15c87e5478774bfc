package chain_test

import (
	"math/big"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// A foundry whose minted tokens are all melted (circulating supply 0) is valid.
func TestTokenSchemeAllMelted(t *testing.T) {
	o := with(fixtureFoundry(), func(o *chain.Output) {
		o.TokenScheme = chain.TokenScheme{Minted: big.NewInt(5), Melted: big.NewInt(5), MaxSupply: big.NewInt(10)}
	})
	if _, err := chain.DecodeOutput(chain.EncodeOutput(o)); err != nil {
		t.Fatalf("minted = melted refused: %v", err)
	}
}

// TIP-20's limit of 64 distinct native tokens over a transaction's outputs is inclusive:
// 40 and 40 tokens that share 16 make 64.
func TestNativeTokensPerTransactionAtTheLimit(t *testing.T) {
	raw := txWithTokens(24)
	if err := decodeErr(raw); err != nil {
		t.Fatalf("64 distinct native tokens refused: %v", err)
	}
}

// A threshold of one signature is a valid configuration (a single coordinator key).
func TestMilestoneKeysOfThresholdOne(t *testing.T) {
	keys := fixtureKeys()
	keys.Threshold = 1
	if err := keys.Verify(fixtureMilestonePayload()); err != nil {
		t.Fatalf("threshold 1: %v", err)
	}
}

// Hornet's milestonePublicKeyCount may be 1 and may equal the number of keys.
func TestParseMilestoneKeysThresholdEdges(t *testing.T) {
	const key = `{"key":"0x` + "1111111111111111111111111111111111111111111111111111111111111111" + `","start":0,"end":0}`
	for _, tc := range []struct {
		json      string
		threshold int
	}{
		{`{"milestonePublicKeyCount":1,"publicKeyRanges":[` + key + `,` + key + `]}`, 1},
		{`{"milestonePublicKeyCount":2,"publicKeyRanges":[` + key + `,` + key + `]}`, 2},
	} {
		keys, err := chain.ParseMilestoneKeys([]byte(tc.json))
		if err != nil || keys.Threshold != tc.threshold {
			t.Fatalf("threshold %d of 2 keys: %+v, %v", tc.threshold, keys, err)
		}
	}
}
